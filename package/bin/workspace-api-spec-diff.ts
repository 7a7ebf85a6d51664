#!/usr/bin/env node
// `workspace-api-spec-diff`: the package's command; compiled to dist/, run by node (no TypeScript at run time).
import '../../scripts/spec-diff';
