/** A POSIX shell word for a path (single quotes; a quote inside becomes '\''). */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}
