/** A plan's steps as a table: id, how it changed (when told), task, tool, dependencies, arguments. */
export function PlanTable({
  steps,
  changeOf,
}: {
  steps: ReadonlyArray<{ id: string | number; task: string; tool?: string; args?: unknown; depends_on?: ReadonlyArray<string | number> }>;
  changeOf?: (id: string) => string;
}) {
  return (
    <table class="plan">
      <tbody>
        {steps.map((step) => {
          const change = changeOf?.(String(step.id));
          return (
            <tr class={change ? `change-${change}` : ""}>
              <td>
                <code>{String(step.id)}</code>
              </td>
              {changeOf && <td>{change}</td>}
              <td>{step.task}</td>
              <td>{step.tool ? <code>{step.tool}</code> : "agent"}</td>
              <td>{step.depends_on?.length ? `after ${step.depends_on.join(", ")}` : ""}</td>
              <td>
                <code>{step.args === undefined ? "" : JSON.stringify(step.args)}</code>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
