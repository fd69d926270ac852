// The reasoning efforts a conversation or a template may set, as a select's options ("" leaves
// the model's own default).
export function ReasoningEffortOptions() {
  return (
    <>
      <option value="">The model&apos;s default</option>
      <option value="low">Low</option>
      <option value="medium">Medium</option>
      <option value="high">High</option>
    </>
  );
}
