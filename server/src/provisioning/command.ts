import type { Command } from 'commander';

// Filled in by provisioning: `campo provision [--dry-run] [--verbose]`.
export function registerProvisionCommand(_program: Command): void {}
