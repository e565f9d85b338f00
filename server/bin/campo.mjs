#!/usr/bin/env node
// Runs the TypeScript sources directly: the server ships no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
