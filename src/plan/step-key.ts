/** Step ids are compared as text: a planner's `"1"` and `1` name the same step. */
export function stepKey(id: string | number): string {
  return String(id);
}
