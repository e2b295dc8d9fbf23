/** commander's argument parser for a flag that may be repeated: every value, in order. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];
