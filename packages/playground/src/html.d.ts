/** esbuild's text loader: an `.html` file imported as its text (build.mjs). */
declare module '*.html' {
  const text: string;
  export default text;
}
