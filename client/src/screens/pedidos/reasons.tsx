import type { SyncOrderReason } from '@campo/shared';

/**
 * Why the server refused an order: one item per reason, in the server's words. Each message
 * already names the line, the ceiling and its rule, or the figures of the flex balance or the
 * credit that did not cover it (the reason's structured figures are there for programs): printed
 * once, not again beneath it.
 */
export function ReasonList(props: { reasons: readonly SyncOrderReason[] }) {
  return (
    <ul class="reasons">
      {props.reasons.map((r, i) => (
        <li key={`${r.code}-${r.line ?? i}`}>{r.message}</li>
      ))}
    </ul>
  );
}
