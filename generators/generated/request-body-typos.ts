/**
 * Generated from spec/openapi.yaml by `npm run generate` (generators/request-body-typos.ts). Do not edit.
 * Every field of every request body, misspelled: each call must fail to compile, and the same call spelled
 * right must compile. `npm run typecheck` compiles this file.
 */
import createClient from 'openapi-fetch';
import type { paths } from './openapi';

const api = createClient<paths>({ baseUrl: 'http://127.0.0.1:4010/v1' });

export async function sendMisspelledFields(): Promise<void> {
  // createMcpServer: `name` written `nmae`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { nmae: '' } });
  await api.POST("/ai/mcpServers", { body: { name: '' } });
  // createMcpServer: `name` written `Name`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { Name: '' } });
  await api.POST("/ai/mcpServers", { body: { name: '' } });
  // createMcpServer: `description` written `dsecription`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { dsecription: '' } });
  await api.POST("/ai/mcpServers", { body: { description: '' } });
  // createMcpServer: `description` written `Description`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { Description: '' } });
  await api.POST("/ai/mcpServers", { body: { description: '' } });
  // createMcpServer: `actions` written `atcions`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { atcions: [] } });
  await api.POST("/ai/mcpServers", { body: { actions: [] } });
  // createMcpServer: `actions` written `Actions`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { Actions: [] } });
  await api.POST("/ai/mcpServers", { body: { actions: [] } });
  // createMcpServer: `resources` written `rseources`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { rseources: [] } });
  await api.POST("/ai/mcpServers", { body: { resources: [] } });
  // createMcpServer: `resources` written `Resources`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { Resources: [] } });
  await api.POST("/ai/mcpServers", { body: { resources: [] } });
  // createMcpServer: `capabilities` written `cpaabilities`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { cpaabilities: [] } });
  await api.POST("/ai/mcpServers", { body: { capabilities: [] } });
  // createMcpServer: `capabilities` written `Capabilities`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { Capabilities: [] } });
  await api.POST("/ai/mcpServers", { body: { capabilities: [] } });
  // createMcpServer: `folderUuid` written `floderUuid`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { floderUuid: '' } });
  await api.POST("/ai/mcpServers", { body: { folderUuid: '' } });
  // createMcpServer: `folderUuid` written `folderUUID`
  // @ts-expect-error
  await api.POST("/ai/mcpServers", { body: { folderUUID: '' } });
  await api.POST("/ai/mcpServers", { body: { folderUuid: '' } });
  // downloadRuns: `workflowUuid` written `wrokflowUuid`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { wrokflowUuid: '' } });
  await api.POST("/orchestration/runs/download", { body: { workflowUuid: '' } });
  // downloadRuns: `workflowUuid` written `workflowUUID`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { workflowUUID: '' } });
  await api.POST("/orchestration/runs/download", { body: { workflowUuid: '' } });
  // downloadRuns: `uuids` written `uiuds`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { uiuds: [] } });
  await api.POST("/orchestration/runs/download", { body: { uuids: [] } });
  // downloadRuns: `uuids` written `Uuids`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { Uuids: [] } });
  await api.POST("/orchestration/runs/download", { body: { uuids: [] } });
  // downloadRuns: `releaseUuid` written `rleeaseUuid`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { rleeaseUuid: '' } });
  await api.POST("/orchestration/runs/download", { body: { releaseUuid: '' } });
  // downloadRuns: `releaseUuid` written `releaseUUID`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { releaseUUID: '' } });
  await api.POST("/orchestration/runs/download", { body: { releaseUuid: '' } });
  // downloadRuns: `batchUuid` written `btachUuid`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { btachUuid: '' } });
  await api.POST("/orchestration/runs/download", { body: { batchUuid: '' } });
  // downloadRuns: `batchUuid` written `batchUUID`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { batchUUID: '' } });
  await api.POST("/orchestration/runs/download", { body: { batchUuid: '' } });
  // downloadRuns: `statuses` written `sattuses`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { sattuses: [] } });
  await api.POST("/orchestration/runs/download", { body: { statuses: [] } });
  // downloadRuns: `statuses` written `Statuses`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { Statuses: [] } });
  await api.POST("/orchestration/runs/download", { body: { statuses: [] } });
  // downloadRuns: `recordId` written `rceordId`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { rceordId: '' } });
  await api.POST("/orchestration/runs/download", { body: { recordId: '' } });
  // downloadRuns: `recordId` written `recordID`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { recordID: '' } });
  await api.POST("/orchestration/runs/download", { body: { recordId: '' } });
  // downloadRuns: `recordTitle` written `rceordTitle`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { rceordTitle: '' } });
  await api.POST("/orchestration/runs/download", { body: { recordTitle: '' } });
  // downloadRuns: `recordTitle` written `RecordTitle`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { RecordTitle: '' } });
  await api.POST("/orchestration/runs/download", { body: { recordTitle: '' } });
  // downloadRuns: `recordTitleOrId` written `rceordTitleOrId`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { rceordTitleOrId: '' } });
  await api.POST("/orchestration/runs/download", { body: { recordTitleOrId: '' } });
  // downloadRuns: `recordTitleOrId` written `recordTitleOrID`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { recordTitleOrID: '' } });
  await api.POST("/orchestration/runs/download", { body: { recordTitleOrId: '' } });
  // downloadRuns: `isFinished` written `iFsinished`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { iFsinished: false } });
  await api.POST("/orchestration/runs/download", { body: { isFinished: false } });
  // downloadRuns: `isFinished` written `IsFinished`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { IsFinished: false } });
  await api.POST("/orchestration/runs/download", { body: { isFinished: false } });
  // downloadRuns: `parentBatchUuid` written `praentBatchUuid`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { praentBatchUuid: '' } });
  await api.POST("/orchestration/runs/download", { body: { parentBatchUuid: '' } });
  // downloadRuns: `parentBatchUuid` written `parentBatchUUID`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { parentBatchUUID: '' } });
  await api.POST("/orchestration/runs/download", { body: { parentBatchUuid: '' } });
  // downloadRuns: `parentUuid` written `praentUuid`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { praentUuid: '' } });
  await api.POST("/orchestration/runs/download", { body: { parentUuid: '' } });
  // downloadRuns: `parentUuid` written `parentUUID`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { parentUUID: '' } });
  await api.POST("/orchestration/runs/download", { body: { parentUuid: '' } });
  // downloadRuns: `parentNodeUuid` written `praentNodeUuid`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { praentNodeUuid: '' } });
  await api.POST("/orchestration/runs/download", { body: { parentNodeUuid: '' } });
  // downloadRuns: `parentNodeUuid` written `parentNodeUUID`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { parentNodeUUID: '' } });
  await api.POST("/orchestration/runs/download", { body: { parentNodeUuid: '' } });
  // downloadRuns: `isGroupParent` written `iGsroupParent`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { iGsroupParent: false } });
  await api.POST("/orchestration/runs/download", { body: { isGroupParent: false } });
  // downloadRuns: `isGroupParent` written `IsGroupParent`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { IsGroupParent: false } });
  await api.POST("/orchestration/runs/download", { body: { isGroupParent: false } });
  // downloadRuns: `createdAfter` written `ceratedAfter`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { ceratedAfter: '' } });
  await api.POST("/orchestration/runs/download", { body: { createdAfter: '' } });
  // downloadRuns: `createdAfter` written `CreatedAfter`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { CreatedAfter: '' } });
  await api.POST("/orchestration/runs/download", { body: { createdAfter: '' } });
  // downloadRuns: `createdBefore` written `ceratedBefore`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { ceratedBefore: '' } });
  await api.POST("/orchestration/runs/download", { body: { createdBefore: '' } });
  // downloadRuns: `createdBefore` written `CreatedBefore`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { CreatedBefore: '' } });
  await api.POST("/orchestration/runs/download", { body: { createdBefore: '' } });
  // downloadRuns: `updatedAfter` written `udpatedAfter`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { udpatedAfter: '' } });
  await api.POST("/orchestration/runs/download", { body: { updatedAfter: '' } });
  // downloadRuns: `updatedAfter` written `UpdatedAfter`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { UpdatedAfter: '' } });
  await api.POST("/orchestration/runs/download", { body: { updatedAfter: '' } });
  // downloadRuns: `updatedBefore` written `udpatedBefore`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { udpatedBefore: '' } });
  await api.POST("/orchestration/runs/download", { body: { updatedBefore: '' } });
  // downloadRuns: `updatedBefore` written `UpdatedBefore`
  // @ts-expect-error
  await api.POST("/orchestration/runs/download", { body: { UpdatedBefore: '' } });
  await api.POST("/orchestration/runs/download", { body: { updatedBefore: '' } });
  // updateCurrentWorkspace: `syncs` written `snycs`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { snycs: [] } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { syncs: [] } });
  // updateCurrentWorkspace: `syncs` written `Syncs`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { Syncs: [] } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { syncs: [] } });
  // updateCurrentWorkspace: `name` written `nmae`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { nmae: '' } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { name: '' } });
  // updateCurrentWorkspace: `name` written `Name`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { Name: '' } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { name: '' } });
  // updateCurrentWorkspace: `allowedEmailDomains` written `alolwedEmailDomains`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { alolwedEmailDomains: [] } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { allowedEmailDomains: [] } });
  // updateCurrentWorkspace: `allowedEmailDomains` written `AllowedEmailDomains`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { AllowedEmailDomains: [] } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { allowedEmailDomains: [] } });
  // updateCurrentWorkspace: `logoBase64` written `lgooBase64`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { lgooBase64: null } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { logoBase64: null } });
  // updateCurrentWorkspace: `logoBase64` written `LogoBase64`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { LogoBase64: null } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { logoBase64: null } });
  // updateCurrentWorkspace: `metadata` written `mteadata`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { mteadata: {} } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { metadata: {} } });
  // updateCurrentWorkspace: `metadata` written `Metadata`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { Metadata: {} } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { metadata: {} } });
  // updateCurrentWorkspace: `browserExtensionMasterAgentUuid` written `borwserExtensionMasterAgentUuid`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { borwserExtensionMasterAgentUuid: '' } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { browserExtensionMasterAgentUuid: '' } });
  // updateCurrentWorkspace: `browserExtensionMasterAgentUuid` written `browserExtensionMasterAgentUUID`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { browserExtensionMasterAgentUUID: '' } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { browserExtensionMasterAgentUuid: '' } });
  // updateCurrentWorkspace: `browserExtensionAvailableAgentUuids` written `borwserExtensionAvailableAgentUuids`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { borwserExtensionAvailableAgentUuids: null } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { browserExtensionAvailableAgentUuids: null } });
  // updateCurrentWorkspace: `browserExtensionAvailableAgentUuids` written `browserExtensionAvailableAgentUUIDs`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { browserExtensionAvailableAgentUUIDs: null } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { browserExtensionAvailableAgentUuids: null } });
  // updateCurrentWorkspace: `defaultRoleUuid` written `dfeaultRoleUuid`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { dfeaultRoleUuid: '' } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { defaultRoleUuid: '' } });
  // updateCurrentWorkspace: `defaultRoleUuid` written `defaultRoleUUID`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { defaultRoleUUID: '' } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { defaultRoleUuid: '' } });
  // updateCurrentWorkspace: `allowedLoginProviders` written `alolwedLoginProviders`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { alolwedLoginProviders: null } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { allowedLoginProviders: null } });
  // updateCurrentWorkspace: `allowedLoginProviders` written `AllowedLoginProviders`
  // @ts-expect-error
  await api.PUT("/workspaceManagement/workspaces/current", { body: { AllowedLoginProviders: null } });
  await api.PUT("/workspaceManagement/workspaces/current", { body: { allowedLoginProviders: null } });
  // executeQuery: `query` written `qeury`
  // @ts-expect-error
  await api.POST("/orchestration/query", { body: { qeury: '' } });
  await api.POST("/orchestration/query", { body: { query: '' } });
  // executeQuery: `query` written `Query`
  // @ts-expect-error
  await api.POST("/orchestration/query", { body: { Query: '' } });
  await api.POST("/orchestration/query", { body: { query: '' } });
  // createRun: `workflowUuid` written `wrokflowUuid`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { wrokflowUuid: '' } });
  await api.POST("/orchestration/runs", { body: { workflowUuid: '' } });
  // createRun: `workflowUuid` written `workflowUUID`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { workflowUUID: '' } });
  await api.POST("/orchestration/runs", { body: { workflowUuid: '' } });
  // createRun: `releaseUuid` written `rleeaseUuid`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { rleeaseUuid: '' } });
  await api.POST("/orchestration/runs", { body: { releaseUuid: '' } });
  // createRun: `releaseUuid` written `releaseUUID`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { releaseUUID: '' } });
  await api.POST("/orchestration/runs", { body: { releaseUuid: '' } });
  // createRun: `recordId` written `rceordId`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { rceordId: '' } });
  await api.POST("/orchestration/runs", { body: { recordId: '' } });
  // createRun: `recordId` written `recordID`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { recordID: '' } });
  await api.POST("/orchestration/runs", { body: { recordId: '' } });
  // createRun: `recordTitle` written `rceordTitle`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { rceordTitle: '' } });
  await api.POST("/orchestration/runs", { body: { recordTitle: '' } });
  // createRun: `recordTitle` written `RecordTitle`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { RecordTitle: '' } });
  await api.POST("/orchestration/runs", { body: { recordTitle: '' } });
  // createRun: `input` written `ipnut`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { ipnut: {} } });
  await api.POST("/orchestration/runs", { body: { input: {} } });
  // createRun: `input` written `Input`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { Input: {} } });
  await api.POST("/orchestration/runs", { body: { input: {} } });
  // createRun: `waitUntilFinished` written `wiatUntilFinished`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { wiatUntilFinished: false } });
  await api.POST("/orchestration/runs", { body: { waitUntilFinished: false } });
  // createRun: `waitUntilFinished` written `WaitUntilFinished`
  // @ts-expect-error
  await api.POST("/orchestration/runs", { body: { WaitUntilFinished: false } });
  await api.POST("/orchestration/runs", { body: { waitUntilFinished: false } });
  // createBatch: `workflowUuid` written `wrokflowUuid`
  // @ts-expect-error
  await api.POST("/orchestration/batches", { body: { wrokflowUuid: '' } });
  await api.POST("/orchestration/batches", { body: { workflowUuid: '' } });
  // createBatch: `workflowUuid` written `workflowUUID`
  // @ts-expect-error
  await api.POST("/orchestration/batches", { body: { workflowUUID: '' } });
  await api.POST("/orchestration/batches", { body: { workflowUuid: '' } });
  // createBatch: `recordIds` written `rceordIds`
  // @ts-expect-error
  await api.POST("/orchestration/batches", { body: { rceordIds: [] } });
  await api.POST("/orchestration/batches", { body: { recordIds: [] } });
  // createBatch: `recordIds` written `recordIDs`
  // @ts-expect-error
  await api.POST("/orchestration/batches", { body: { recordIDs: [] } });
  await api.POST("/orchestration/batches", { body: { recordIds: [] } });
}
