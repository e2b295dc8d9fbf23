/** How a transcript colours a piece of text (plain text when it is not shown on a terminal). */
export type TranscriptStyle = (style: "bold" | "dim" | "green" | "yellow" | "red" | "cyan", text: string) => string;
