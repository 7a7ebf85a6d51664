#!/usr/bin/env node
// `workspace-api-conformance`: the package's command; compiled to dist/, run by node (no TypeScript at run time).
import '../../conformance/cli';
