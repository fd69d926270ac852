// Vite hands tests a file's text with `?raw` (used to compare wrangler.toml with the code).
declare module "*?raw" {
  const text: string;
  export default text;
}
