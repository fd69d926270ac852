// Model output as markdown. Placeholder until the renderer lands: plain text, never markup.
export function Markdown({ text }: { text: string }) {
  return <div className="markdown text">{text}</div>;
}
