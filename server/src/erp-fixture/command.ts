import type { Command } from 'commander';

// Filled in by the fixture generator: `campo erp-fixture --scale tiny|small|medium|large`.
export function registerErpFixtureCommand(_program: Command): void {}
