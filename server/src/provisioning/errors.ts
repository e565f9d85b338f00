// Why provisioning stopped, as an exit code an operator's script can act on. Every refusal
// happens before the first change, except a failing migration or repeatable, which is
// rolled back on its own (earlier migrations of the same run stay applied and recorded).

/** Exit codes of `campo provision`, documented in docs/provisioning.md. */
export const EXIT_CODES = {
  ok: 0,
  unexpected: 1,
  /** DATABASE_URL missing or malformed (ConfigError, handled by the CLI's main). */
  config: 2,
  /** Cannot connect, or the database is not one Campo can live in: not LATIN1, too old, ERP tables or columns missing. */
  refused: 3,
  /** The app schema is not what this release expects: baseline differs, an applied migration was edited, a newer release ran. */
  schemaMismatch: 4,
  /** A migration or a repeatable object failed; its transaction was rolled back. */
  migrationFailed: 5,
} as const;

export type ProvisionFailure = Exclude<keyof typeof EXIT_CODES, 'ok' | 'config'>;

export class ProvisionError extends Error {
  readonly exitCode: number;
  constructor(
    readonly failure: ProvisionFailure,
    message: string,
  ) {
    super(message);
    this.name = 'ProvisionError';
    this.exitCode = EXIT_CODES[failure];
  }
}
