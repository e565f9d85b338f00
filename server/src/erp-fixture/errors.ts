/** Why the fixture refused the database; the CLI prints the message and exits with code 3. */
export type FixtureRefusal = 'WRONG_ENCODING' | 'TABLES_EXIST' | 'NOT_A_FIXTURE' | 'DEPENDENT_OBJECTS';

export class FixtureError extends Error {
  constructor(
    readonly code: FixtureRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'FixtureError';
  }
}
