// A block of code, highlighted for its language. Placeholder until highlighting lands.
export function CodeBlock({ code, language }: { code: string; language?: string | null }) {
  return (
    <pre className="code-block">
      <code data-language={language ?? undefined}>{code}</code>
    </pre>
  );
}
