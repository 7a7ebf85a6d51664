#!/usr/bin/env node
// `workspace-api-mock`: the package's command; compiled to dist/, run by node (no TypeScript at run time).
import '../../mocks/server';
