// A number an operator sets as text (a var or secret). One that is not a positive number is
// ignored, so the default applies, and said once per isolate in the logs: a "50MB" must not
// pass for the default unnoticed.
const reported = new Set<string>();

export function positiveSetting(
  name: string,
  value: string | undefined,
  { integer = false }: { integer?: boolean } = {},
): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  if (Number.isFinite(n) && n > 0 && (!integer || Number.isInteger(n))) return n;
  if (!reported.has(`${name}=${value}`)) {
    reported.add(`${name}=${value}`);
    const kind = integer ? "a positive whole number" : "a positive number";
    console.error(
      JSON.stringify({
        level: "error",
        event: "config",
        message: `${name} must be ${kind}; it is ignored and the default is used.`,
      }),
    );
  }
  return undefined;
}
