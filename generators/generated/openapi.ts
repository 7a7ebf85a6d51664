/**
 * Generated from spec/openapi.yaml by `npm run generate` (openapi-typescript). Do not edit: change the spec
 * and regenerate; `npm test` fails while this file is stale.
 */
/**
 * What a client sends: the schema, each object with a field no one can set (`~fieldsAreKnown`, marked read-only
 * the way openapi-fetch's `Writable` reads it), so a body whose fields are all misspelled fails to compile.
 */
export type RequestBody<T> = T extends readonly (infer E)[] ? RequestBody<E>[] : T extends object ? {
    [K in keyof T]: RequestBody<T[K]>;
} & {
    readonly "~fieldsAreKnown"?: {
        readonly $read: never;
    };
} : T;
export interface paths {
    "/mailboxManagement/suppressions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List suppressions
         * @description Lists the addresses the workspace may no longer send to. Default values for limit and offset and the ordering of results are not shown.
         */
        get: operations["listSuppressions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ai/mcpServers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create MCP server
         * @description Creates an MCP server from its name, description, actions, resources, capabilities and folder. The required fields of the request body, the status code of each failure and the shapes of action, resource and capability kinds other than tool, model and sandbox are not shown.
         */
        post: operations["createMcpServer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orchestration/runs/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Download runs
         * @description Exports the runs selected by the filters and answers a download URL. Whether the URL expires is not shown.
         */
        post: operations["downloadRuns"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaceManagement/workspaces/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update current workspace
         * @description Updates the caller's workspace. Required fields and whether omitted fields are left unchanged are not shown.
         */
        put: operations["updateCurrentWorkspace"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orchestration/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Execute SQL query
         * @description Runs one read-only `SELECT` statement over the run data (a `WITH … SELECT` is a SELECT too). Results are automatically
         *     scoped to the authenticated workspace. Queryable tables: `logs`, `runs`, `batches`, `records` and
         *     `spans`; their columns are described by the `Query*Row` schemas (an assumption: the columns are not
         *     shown).
         */
        post: operations["executeQuery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orchestration/workflows/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get workflow
         * @description Returns the workflow with this uuid.
         */
        get: operations["getWorkflow"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/storage/models/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get model
         * @description Returns the storage model with this uuid.
         */
        get: operations["getModel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/domainManagement/domains/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Cancel domain
         * @description Cancels a managed domain. The credits charged at purchase (`priceCredits`) are not refunded. The status after cancellation is not shown.
         */
        delete: operations["cancelDomain"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/revenueOrganization/allocations/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List allocations
         * @description Lists allocations. The defaults of limit and offset are not shown.
         */
        get: operations["listAllocations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/workspaceManagement/env-vars/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove environment variable
         * @description Removes the environment variable with this uuid and answers an empty JSON object. Fields of an environment variable other than its identifier are not shown.
         */
        delete: operations["removeEnvironmentVariable"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/expression/recipes/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List recipes
         * @description Lists expression recipes. The defaults of limit and offset are not shown.
         */
        get: operations["listRecipes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orchestration/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a run (provisional)
         * @description Starts a run. Answers 202 with a `Location` header pointing at the run; poll it until a terminal status and do not repeat this request. With `waitUntilFinished: true` the request waits and answers 200 with the finished run.
         */
        post: operations["createRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orchestration/runs/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a run (provisional)
         * @description Fetches a run; this is what the `Location` of a created run points at.
         */
        get: operations["getRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orchestration/runs/{uuid}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a run (provisional)
         * @description Asks a run to stop. A run that is not finished answers 202 with `Location` (typically in `cancelling`); poll it until a terminal status. A finished run is returned unchanged (200), since a terminal status is final.
         */
        post: operations["cancelRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orchestration/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a batch (provisional)
         * @description Starts a batch of runs. Answers 202 with a `Location` header pointing at the batch; poll it until a terminal status and do not repeat this request.
         */
        post: operations["createBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orchestration/batches/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a batch (provisional)
         * @description Fetches a batch; this is what the `Location` of a created batch points at.
         */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description A version 1-8 UUID with variant 8, 9, a or b, or the nil UUID, or the max UUID. (Stricter than the generic `uuid` format of common validators, which accept other versions, variants and URN forms.)
         * @example 3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b
         */
        Uuid: string;
        /** @description An HTTP date in the IMF-fixdate form of RFC 9110. */
        HttpDate: string;
        /**
         * @description A timestamp. Its string format is not shown.
         * @example 2026-03-01T10:00:00.000Z
         */
        Timestamp: string;
        /**
         * @description A timestamp, or null. Its string format is not shown.
         * @example 2026-03-01T10:00:00.000Z
         */
        NullableTimestamp: string | null;
        NullableString: string | null;
        NullableBoolean: boolean | null;
        NullableInteger: number | null;
        NullableNumber: number | null;
        NullableObject: Record<string, unknown> | null;
        NullableStringArray: string[] | null;
        Position: {
            x?: components["schemas"]["NullableNumber"];
            y?: components["schemas"]["NullableNumber"];
        } | null;
        /** @description The shared error shape of every 4xx and 5xx response. The object is open: clients treat fields they do not know (for example `retryAfter` on a 429) as allowed. */
        Error: {
            /** @description Human-readable description. */
            errorMessage: string;
            /** @description Machine-readable cause; present on routes that distinguish failure modes. Its value set is not shown. */
            reason?: string;
            /** @description An example of an extra field: on a 429, the seconds to wait (as in `Retry-After`). Its type is not shown; the mock sends an integer. */
            retryAfter?: unknown;
        } & {
            [key: string]: unknown;
        };
        /** @enum {string} */
        SuppressionReason: "unsubscribed" | "bounced" | "complained" | "manual";
        /** @description An address the workspace must no longer mail. No additional properties; every field is required. */
        Suppression: {
            uuid: components["schemas"]["Uuid"];
            workspaceUuid: components["schemas"]["Uuid"];
            /** @description Address that must not be mailed. */
            email: string;
            reason: components["schemas"]["SuppressionReason"];
            /** @description Mailbox that produced it, if any. */
            mailboxUuid: components["schemas"]["Uuid"] | null;
            /** @description Message that produced it, if any. */
            messageUuid: components["schemas"]["Uuid"] | null;
            createdAt: components["schemas"]["Timestamp"];
            updatedAt: components["schemas"]["Timestamp"];
        };
        ListSuppressionsResponse: {
            /** @description Total number of suppressions matching the filters (not only this page). */
            count: number;
            suppressions: components["schemas"]["Suppression"][];
        };
        /** @description The `tool` variant of an action. */
        ToolAction: {
            /** @constant */
            kind: "tool";
            name?: components["schemas"]["NullableString"];
            slug?: components["schemas"]["NullableString"];
            description?: components["schemas"]["NullableString"];
            isBulkAllowed?: components["schemas"]["NullableBoolean"];
            config?: components["schemas"]["NullableObject"];
            toolUuid?: components["schemas"]["NullableString"];
            templateSlug?: components["schemas"]["NullableString"];
            waitUntilFinished?: components["schemas"]["NullableBoolean"];
        };
        /** @description Any other action variant (the action has 4 variants; shapes other than `tool` are not shown). */
        OtherAction: {
            kind?: string;
        };
        /** @description An action of an MCP server; an open union of which only the `tool` variant is shown. */
        Action: components["schemas"]["ToolAction"] | components["schemas"]["OtherAction"];
        McpResourceFilter: {
            /**
             * @description Absent on input. One value is listed.
             * @example or
             */
            readonly conjonction?: string | null;
            groups?: unknown[] | null;
        } | null;
        /** @description The `model` variant of an MCP resource. */
        ModelMcpResource: {
            /** @constant */
            kind: "model";
            name?: components["schemas"]["NullableString"];
            slug?: components["schemas"]["NullableString"];
            description?: components["schemas"]["NullableString"];
            prompt?: components["schemas"]["NullableString"];
            integrationSlug?: components["schemas"]["NullableString"];
            modelUuid?: components["schemas"]["NullableString"];
            filter?: components["schemas"]["McpResourceFilter"];
            selectedColumnSlugs?: components["schemas"]["NullableStringArray"];
            limit?: components["schemas"]["NullableInteger"];
            isReadOnly?: components["schemas"]["NullableBoolean"];
        };
        /** @description The other MCP resource variant (2 in total; its shape is not shown). */
        OtherMcpResource: {
            kind?: string;
        };
        /** @description A resource of an MCP server; an open union of which only the `model` variant is shown. */
        McpResource: components["schemas"]["ModelMcpResource"] | components["schemas"]["OtherMcpResource"];
        /** @description The `sandbox` capability. */
        SandboxCapability: {
            /** @constant */
            slug: "sandbox";
            config?: {
                /**
                 * @description Carried by responses. One value is listed.
                 * @example chat
                 */
                scope?: string | null;
            } | null;
        };
        /** @description Any other capability (11 in total; shapes other than `sandbox` are not shown). */
        OtherCapability: {
            slug?: string;
            config?: components["schemas"]["NullableObject"];
        };
        /** @description A capability of an MCP server; an open union of which only `sandbox` is shown. */
        Capability: components["schemas"]["SandboxCapability"] | components["schemas"]["OtherCapability"];
        McpServer: {
            uuid?: components["schemas"]["NullableString"];
            workspaceUuid?: components["schemas"]["NullableString"];
            userUuid?: components["schemas"]["NullableString"];
            name?: components["schemas"]["NullableString"];
            description?: components["schemas"]["NullableString"];
            actions?: components["schemas"]["Action"][] | null;
            resources?: components["schemas"]["McpResource"][] | null;
            capabilities?: components["schemas"]["Capability"][] | null;
            folderUuid?: components["schemas"]["NullableString"];
            templateSlug?: components["schemas"]["NullableString"];
            isReadOnly?: components["schemas"]["NullableBoolean"];
            createdAt?: components["schemas"]["NullableTimestamp"];
            updatedAt?: components["schemas"]["NullableTimestamp"];
            deletedAt?: components["schemas"]["NullableTimestamp"];
        };
        McpServerResponse: {
            mcpServer: components["schemas"]["McpServer"];
        };
        CreateMcpServerRequest: {
            name?: string;
            description?: string;
            actions?: components["schemas"]["Action"][];
            resources?: components["schemas"]["McpResource"][];
            capabilities?: components["schemas"]["Capability"][];
            /** @description Folder of the server. */
            folderUuid?: components["schemas"]["Uuid"];
        };
        /**
         * @description Status of a run. The set is stated in full.
         * @enum {string}
         */
        RunStatus: "idle" | "pending" | "running" | "success" | "error" | "cancelling" | "cancelled" | "skipped";
        /**
         * @description The terminal statuses of a run or batch; a terminal status is final.
         * @enum {string}
         */
        TerminalRunStatus: "success" | "error" | "cancelled" | "skipped";
        /** @description A run. It may belong to a workflow, a release, a batch, a parent run, a parent batch and a parent node, and is matched to a record by record id and record title. Further fields are not shown. */
        Run: {
            uuid?: components["schemas"]["Uuid"];
            workspaceUuid?: components["schemas"]["NullableString"];
            status?: components["schemas"]["RunStatus"];
            workflowUuid?: components["schemas"]["NullableString"];
            releaseUuid?: components["schemas"]["NullableString"];
            batchUuid?: components["schemas"]["NullableString"];
            parentUuid?: components["schemas"]["NullableString"];
            parentBatchUuid?: components["schemas"]["NullableString"];
            parentNodeUuid?: components["schemas"]["NullableString"];
            recordId?: components["schemas"]["NullableString"];
            recordTitle?: components["schemas"]["NullableString"];
            isGroupParent?: components["schemas"]["NullableBoolean"];
            createdAt?: components["schemas"]["NullableTimestamp"];
            updatedAt?: components["schemas"]["NullableTimestamp"];
            finishedAt?: components["schemas"]["NullableTimestamp"];
        };
        RunResponse: {
            run: components["schemas"]["Run"];
        };
        CreateRunRequest: {
            workflowUuid?: components["schemas"]["Uuid"];
            releaseUuid?: components["schemas"]["Uuid"];
            recordId?: string;
            recordTitle?: string;
            /** @description Input of the run. */
            input?: Record<string, unknown>;
            /** @description When true, the request waits until the run has finished and answers 200 with it. */
            waitUntilFinished?: boolean;
        };
        /** @description A batch of runs. Statuses other than `pending` are not shown; terminal ones are those of a run. */
        Batch: {
            uuid?: components["schemas"]["Uuid"];
            workspaceUuid?: components["schemas"]["NullableString"];
            /**
             * @example pending
             * @example success
             */
            status?: string | null;
            /** @example healthy */
            runsStatus?: string | null;
            workflowUuid?: components["schemas"]["NullableString"];
            errorMessage?: components["schemas"]["NullableString"];
            createdAt?: components["schemas"]["NullableTimestamp"];
            finishedAt?: components["schemas"]["NullableTimestamp"];
        };
        BatchResponse: {
            batch: components["schemas"]["Batch"];
        };
        CreateBatchRequest: {
            workflowUuid?: components["schemas"]["Uuid"];
            recordIds?: string[];
        };
        /** @description All filters select the runs to export. */
        DownloadRunsRequest: {
            workflowUuid?: components["schemas"]["Uuid"];
            /** @description Run uuids to include. */
            uuids?: components["schemas"]["Uuid"][];
            releaseUuid?: components["schemas"]["Uuid"];
            batchUuid?: components["schemas"]["Uuid"];
            statuses?: components["schemas"]["RunStatus"][];
            recordId?: string;
            recordTitle?: string;
            recordTitleOrId?: string;
            /** @description Only finished runs. */
            isFinished?: boolean;
            parentBatchUuid?: components["schemas"]["Uuid"];
            parentUuid?: components["schemas"]["Uuid"];
            parentNodeUuid?: components["schemas"]["Uuid"];
            /** @description Select group parent runs. */
            isGroupParent?: boolean;
            createdAfter?: components["schemas"]["Timestamp"];
            createdBefore?: components["schemas"]["Timestamp"];
            updatedAfter?: components["schemas"]["Timestamp"];
            updatedBefore?: components["schemas"]["Timestamp"];
        };
        DownloadRunsResponse: {
            /** @description A download URL for the exported runs. */
            url: string;
        };
        QueryRequest: {
            /**
             * @description One read-only SELECT statement, at most 10000 characters.
             * @example SELECT uuid, status FROM runs ORDER BY createdAt DESC LIMIT 10
             */
            query: string;
        };
        QueryResponse: {
            /** @description The rows, one object per row keyed by column name. Row contents are not shown. */
            rows: Record<string, unknown>[];
        };
        /** @description Columns of the `runs` table. */
        QueryRunRow: {
            uuid?: string;
            workspaceUuid?: string;
            workflowUuid?: string | null;
            releaseUuid?: string | null;
            batchUuid?: string | null;
            parentUuid?: string | null;
            parentBatchUuid?: string | null;
            parentNodeUuid?: string | null;
            recordId?: string | null;
            recordTitle?: string | null;
            status?: string;
            isGroupParent?: number;
            createdAt?: string;
            updatedAt?: string;
            finishedAt?: string | null;
        };
        /** @description Columns of the `batches` table. */
        QueryBatchRow: {
            uuid?: string;
            workspaceUuid?: string;
            workflowUuid?: string | null;
            status?: string;
            runsStatus?: string | null;
            createdAt?: string;
            finishedAt?: string | null;
        };
        /** @description Columns of the `logs` table. */
        QueryLogRow: {
            uuid?: string;
            workspaceUuid?: string;
            runUuid?: string;
            level?: string;
            message?: string;
            createdAt?: string;
        };
        /** @description Columns of the `records` table. */
        QueryRecordRow: {
            id?: string;
            workspaceUuid?: string;
            modelUuid?: string | null;
            title?: string | null;
            createdAt?: string;
        };
        /** @description Columns of the `spans` table. */
        QuerySpanRow: {
            uuid?: string;
            workspaceUuid?: string;
            runUuid?: string;
            parentSpanUuid?: string | null;
            name?: string;
            startedAt?: string;
            endedAt?: string | null;
            durationMs?: number | null;
        };
        WorkflowNode: {
            uuid?: components["schemas"]["NullableString"];
            slug?: components["schemas"]["NullableString"];
            /** @description Child nodes, of the same shape. */
            nodes?: Record<string, unknown>[] | null;
            isArchived?: components["schemas"]["NullableBoolean"];
            /** @example native */
            kind?: string | null;
            actionSlug?: components["schemas"]["NullableString"];
            name?: components["schemas"]["NullableString"];
            description?: components["schemas"]["NullableString"];
        };
        ReleaseNode: {
            uuid?: components["schemas"]["Uuid"] | null;
            slug?: components["schemas"]["NullableString"];
            config?: components["schemas"]["NullableObject"];
            childrenUuids?: components["schemas"]["NullableStringArray"];
            fallbackOnFailure?: components["schemas"]["NullableBoolean"];
            position?: components["schemas"]["Position"];
            /** @example native */
            kind?: string | null;
            actionSlug?: components["schemas"]["NullableString"];
            name?: components["schemas"]["NullableString"];
            description?: components["schemas"]["NullableString"];
            retry?: {
                maximumAttempts?: components["schemas"]["NullableNumber"];
                initialInterval?: components["schemas"]["NullableNumber"];
                backoffCoefficient?: components["schemas"]["NullableNumber"];
            } | null;
            fallbackChildUuid?: components["schemas"]["NullableString"];
        };
        FormField: {
            slug?: components["schemas"]["NullableString"];
            name?: components["schemas"]["NullableString"];
            /** @example string */
            kind?: string | null;
            description?: components["schemas"]["NullableString"];
            placeholder?: components["schemas"]["NullableString"];
            isRequired?: components["schemas"]["NullableBoolean"];
        };
        DeployedRelease: {
            uuid?: components["schemas"]["NullableString"];
            userUuid?: components["schemas"]["NullableString"];
            description?: components["schemas"]["NullableString"];
            /** @description Version of the release. */
            version?: unknown;
            nodes?: components["schemas"]["ReleaseNode"][] | null;
            formFields?: components["schemas"]["FormField"][] | null;
            templateSlug?: components["schemas"]["NullableString"];
            deployedAt?: components["schemas"]["NullableTimestamp"];
            createdAt?: components["schemas"]["NullableTimestamp"];
        } | null;
        Workflow: {
            uuid?: components["schemas"]["NullableString"];
            workspaceUuid?: components["schemas"]["NullableString"];
            nodes?: components["schemas"]["WorkflowNode"][] | null;
            createdAt?: components["schemas"]["NullableTimestamp"];
            updatedAt?: components["schemas"]["NullableTimestamp"];
            deletedAt?: components["schemas"]["NullableTimestamp"];
            playUuid?: components["schemas"]["NullableString"];
            toolUuid?: components["schemas"]["NullableString"];
            folderUuid?: components["schemas"]["NullableString"];
            template?: {
                slug?: components["schemas"]["NullableString"];
                isAvailable?: components["schemas"]["NullableBoolean"];
                /** @example public */
                scope?: string | null;
            } | null;
            lastBatch?: {
                uuid?: components["schemas"]["NullableString"];
                /** @example pending */
                status?: string | null;
                /** @example healthy */
                runsStatus?: string | null;
                errorMessage?: components["schemas"]["NullableString"];
                createdAt?: components["schemas"]["NullableTimestamp"];
                finishedAt?: components["schemas"]["NullableTimestamp"];
            } | null;
            deployedRelease?: components["schemas"]["DeployedRelease"];
        };
        WorkflowResponse: {
            workflow: components["schemas"]["Workflow"];
        };
        ModelColumn: {
            slug?: components["schemas"]["NullableString"];
            /** @example string */
            type?: string | null;
            label?: components["schemas"]["NullableString"];
            /** @example original */
            kind?: string | null;
            originalSlug?: components["schemas"]["NullableString"];
            properties?: components["schemas"]["NullableStringArray"];
            description?: components["schemas"]["NullableString"];
        };
        ModelAdditionalColumn: {
            slug?: components["schemas"]["NullableString"];
            type?: string | null;
            label?: components["schemas"]["NullableString"];
            /** @example custom */
            kind?: string | null;
            properties?: components["schemas"]["NullableStringArray"];
            description?: components["schemas"]["NullableString"];
        };
        /** @description A storage model. */
        Model: {
            uuid?: components["schemas"]["NullableString"];
            workspaceUuid?: components["schemas"]["NullableString"];
            slug?: components["schemas"]["NullableString"];
            name?: components["schemas"]["NullableString"];
            description?: components["schemas"]["NullableString"];
            datasetUuid?: components["schemas"]["NullableString"];
            extractorSlug?: components["schemas"]["NullableString"];
            position?: components["schemas"]["Position"];
            config?: components["schemas"]["NullableObject"];
            meta?: components["schemas"]["NullableObject"];
            schedule?: {
                /** @description One value is listed, a vendor tool name written `<transform_tool>` in the description. */
                type?: string | null;
                jobId?: components["schemas"]["NullableString"];
            } | null;
            columns?: components["schemas"]["ModelColumn"][] | null;
            additionalColumns?: components["schemas"]["ModelAdditionalColumn"][] | null;
            idColumnSlug?: components["schemas"]["NullableString"];
            titleColumnSlug?: components["schemas"]["NullableString"];
            timeColumnSlug?: components["schemas"]["NullableString"];
            unification?: {
                /** @example integration */
                source?: string | null;
            } | null;
            folderUuid?: components["schemas"]["NullableString"];
            playsCount?: components["schemas"]["NullableInteger"];
            segmentsCount?: components["schemas"]["NullableInteger"];
            isPaused?: components["schemas"]["NullableBoolean"];
            lastEmittedAt?: components["schemas"]["NullableTimestamp"];
            createdAt?: components["schemas"]["NullableTimestamp"];
            updatedAt?: components["schemas"]["NullableTimestamp"];
            deletedAt?: components["schemas"]["NullableTimestamp"];
            lastRun?: {
                uuid?: components["schemas"]["NullableString"];
                /** @example pending */
                status?: string | null;
                errorMessage?: components["schemas"]["NullableString"];
                createdAt?: components["schemas"]["NullableTimestamp"];
                finishedAt?: components["schemas"]["NullableTimestamp"];
            } | null;
            /**
             * @description One value is listed of 2 variants.
             * @example connector
             */
            kind?: string | null;
            connectorUuid?: components["schemas"]["NullableString"];
        };
        ModelResponse: {
            model: components["schemas"]["Model"];
        };
        DnsRecord: {
            /** @example A */
            type?: string | null;
            name?: components["schemas"]["NullableString"];
            value?: components["schemas"]["NullableString"];
            ttl?: components["schemas"]["NullableInteger"];
            priority?: components["schemas"]["NullableInteger"];
        };
        NullableUuid: components["schemas"]["Uuid"] | null;
        /** @description A managed mail domain. */
        Domain: {
            uuid?: components["schemas"]["NullableUuid"];
            workspaceUuid?: components["schemas"]["NullableUuid"];
            userUuid?: components["schemas"]["NullableUuid"];
            billingUsageUuid?: components["schemas"]["NullableUuid"];
            name?: components["schemas"]["NullableString"];
            /**
             * @description One value is listed; the status after cancellation is not shown.
             * @example pending
             */
            status?: string | null;
            /** @description Enumerated; one value is listed, a third-party provider written `<registrar_name>` in the description. */
            registrar?: string | null;
            meta?: components["schemas"]["NullableObject"];
            dnsRecords?: components["schemas"]["DnsRecord"][] | null;
            verification?: components["schemas"]["DnsRecord"][] | null;
            redirectUrl?: components["schemas"]["NullableString"];
            dmarcEmail?: components["schemas"]["NullableString"];
            /** @example none */
            dmarcPolicy?: string | null;
            verifiedAt?: components["schemas"]["NullableTimestamp"];
            expiresAt?: components["schemas"]["NullableTimestamp"];
            renewalChargedUntil?: components["schemas"]["NullableTimestamp"];
            /** @description Credits charged at purchase; not refunded on cancellation. */
            priceCredits?: components["schemas"]["NullableInteger"];
            autoRenew?: components["schemas"]["NullableBoolean"];
            createdAt?: components["schemas"]["NullableTimestamp"];
            updatedAt?: components["schemas"]["NullableTimestamp"];
            deletedAt?: components["schemas"]["NullableTimestamp"];
        };
        DomainResponse: {
            domain: components["schemas"]["Domain"];
        };
        Allocation: {
            uuid?: components["schemas"]["NullableString"];
            memberUuid?: components["schemas"]["NullableString"];
            workspaceUuid?: components["schemas"]["NullableString"];
            capacityUuid?: components["schemas"]["NullableString"];
            isFallbackMember?: components["schemas"]["NullableBoolean"];
            allocatedBy?: {
                /** @example workflow */
                allocator?: string | null;
                workflowUuid?: components["schemas"]["NullableString"];
                workflowNodeUuid?: components["schemas"]["NullableString"];
                membersUuids?: components["schemas"]["NullableStringArray"];
                workflowRunUuid?: components["schemas"]["NullableString"];
                fallbackMemberUuid?: components["schemas"]["NullableString"];
                modelUuid?: components["schemas"]["NullableString"];
                recordId?: components["schemas"]["NullableString"];
            } | null;
            recordIds?: components["schemas"]["NullableStringArray"];
            allocatedAt?: components["schemas"]["NullableTimestamp"];
            syncedAt?: components["schemas"]["NullableTimestamp"];
            createdAt?: components["schemas"]["NullableTimestamp"];
            updatedAt?: components["schemas"]["NullableTimestamp"];
            deletedAt?: components["schemas"]["NullableTimestamp"];
        };
        ListAllocationsResponse: {
            allocations: components["schemas"]["Allocation"][];
        };
        RecipePlaceholder: {
            slug?: components["schemas"]["NullableString"];
            name?: components["schemas"]["NullableString"];
            description?: components["schemas"]["NullableString"];
        };
        /** @description An expression recipe. */
        Recipe: {
            uuid?: components["schemas"]["NullableString"];
            shortId?: components["schemas"]["NullableString"];
            version?: components["schemas"]["NullableInteger"];
            workspaceUuid?: components["schemas"]["NullableString"];
            name?: components["schemas"]["NullableString"];
            description?: components["schemas"]["NullableString"];
            expression?: components["schemas"]["NullableString"];
            isPublic?: components["schemas"]["NullableBoolean"];
            isBlacklisted?: components["schemas"]["NullableBoolean"];
            isFavorite?: components["schemas"]["NullableBoolean"];
            archivedAt?: components["schemas"]["NullableTimestamp"];
            placeholders?: components["schemas"]["RecipePlaceholder"][] | null;
            userUuid?: components["schemas"]["NullableString"];
            userFirstName?: components["schemas"]["NullableString"];
            userLastName?: components["schemas"]["NullableString"];
            userPicture?: components["schemas"]["NullableString"];
        };
        ListRecipesResponse: {
            recipes: components["schemas"]["Recipe"][];
        };
        /** @enum {string} */
        LoginProvider: "email" | "social-oauth2" | "enterprise-directory" | "single-sign-on" | "agent-identity";
        /** @description Onboarding metadata. */
        WorkspaceMetadata: {
            mainGoal?: components["schemas"]["NullableStringArray"];
            salesRepCount?: components["schemas"]["NullableString"];
            gtmStackList?: components["schemas"]["NullableStringArray"];
            referralSource?: components["schemas"]["NullableStringArray"];
        };
        Workspace: {
            uuid?: components["schemas"]["NullableString"];
            name?: components["schemas"]["NullableString"];
            allowedEmailDomains?: components["schemas"]["NullableStringArray"];
            engineNamespace?: components["schemas"]["NullableString"];
            engineTaskQueuePrefix?: components["schemas"]["NullableString"];
            vectorStoreId?: components["schemas"]["NullableString"];
            syncs?: {
                /** @example connection */
                domain?: string | null;
                engineScheduleWorkflowId?: components["schemas"]["NullableString"];
                cron?: components["schemas"]["NullableString"];
            }[] | null;
            createdAt?: components["schemas"]["NullableTimestamp"];
            updatedAt?: components["schemas"]["NullableTimestamp"];
            suspendedAt?: components["schemas"]["NullableTimestamp"];
            /** @description URL of the logo. */
            logoUrl?: components["schemas"]["NullableString"];
            metadata?: components["schemas"]["WorkspaceMetadata"] | null;
            browserExtensionMasterAgentUuid?: components["schemas"]["NullableString"];
            browserExtensionAvailableAgentUuids?: components["schemas"]["NullableStringArray"];
            /** @description Role of new members; null means the role `viewer`. */
            defaultRoleUuid?: components["schemas"]["NullableString"];
            /** @description Allowed login providers; null allows all. */
            allowedLoginProviders?: components["schemas"]["LoginProvider"][] | null;
            ssoIdentifier?: components["schemas"]["NullableString"];
            quotaBuckets?: components["schemas"]["NullableObject"];
        };
        WorkspaceResponse: {
            workspace: components["schemas"]["Workspace"];
        };
        UpdateWorkspaceRequest: {
            /** @description Recurring sync schedules for workspace domains. */
            syncs?: {
                cron?: string;
            }[];
            name?: string;
            /** @description Email domains allowed to join. */
            allowedEmailDomains?: string[];
            /** @description A base64 image; null removes the logo. */
            logoBase64?: string | null;
            metadata?: components["schemas"]["WorkspaceMetadata"];
            /** @description Default agent for the browser extension; null clears it. */
            browserExtensionMasterAgentUuid?: components["schemas"]["Uuid"] | null;
            /** @description Agents the extension may offer; null clears them. */
            browserExtensionAvailableAgentUuids?: string[] | null;
            /** @description Role of new members; null means the role `viewer`. */
            defaultRoleUuid?: components["schemas"]["Uuid"] | null;
            /** @description Allowed login providers; null allows all. */
            allowedLoginProviders?: components["schemas"]["LoginProvider"][] | null;
        };
        /** @description An environment variable of the workspace. Fields beyond its identifier are not shown. */
        EnvironmentVariable: {
            uuid?: components["schemas"]["Uuid"];
        };
        /** @description An empty JSON object. */
        EmptyResponse: Record<string, unknown>;
    };
    responses: {
        /** @description Bad request. */
        BadRequest: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorMessage": "limit: must be <= 1000",
                 *       "reason": "invalid_request"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No valid credential. */
        Unauthorized: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorMessage": "A valid bearer credential is required.",
                 *       "reason": "unauthorized"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not found. */
        NotFound: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorMessage": "No such resource in this workspace.",
                 *       "reason": "not_found"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A concurrent retry with this Idempotency-Key while the first request still runs. */
        Conflict: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorMessage": "A request with this Idempotency-Key is still running.",
                 *       "reason": "idempotency_key_in_use"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is over the server's size limit. */
        PayloadTooLarge: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorMessage": "The request body is over the size limit.",
                 *       "reason": "payload_too_large"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The Idempotency-Key was reused with a different request. */
        UnprocessableEntity: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorMessage": "This Idempotency-Key was used with a different request.",
                 *       "reason": "idempotency_key_reused"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many requests; back off by `Retry-After` seconds. */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorMessage": "Too many requests; retry after 30 seconds.",
                 *       "reason": "rate_limited",
                 *       "retryAfter": 30
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Internal server error. */
        InternalServerError: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "errorMessage": "Internal server error.",
                 *       "reason": "internal_error"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description Optional idempotency key, at most 255 characters. A retry with the same key and the same request returns the original response and creates no second record; a different request with the same key gets 422; a concurrent retry while the first request still runs gets 409. Keys expire after 24 hours. Multipart file uploads do not accept this header. */
        IdempotencyKey: string;
        /** @description Identifier of the resource. */
        UuidPath: components["schemas"]["Uuid"];
        /** @description Maximum number of items to return. Its bounds are not shown. */
        UnboundedLimit: number;
        /** @description Number of items to skip. Its bounds are not shown. */
        UnboundedOffset: number;
    };
    requestBodies: never;
    headers: {
        /** @description Quota under the workspace policy, as a structured field: `"workspace";r=<remaining>;t=<window seconds>` (the policy name is quoted). */
        RateLimit: string;
        /** @description Maximum requests in the current window. */
        "RateLimit-Limit": string;
        /** @description Requests remaining in the current window. */
        "RateLimit-Remaining": string;
        /** @description Seconds until the window resets. */
        "RateLimit-Reset": string;
        /** @description The policy, as `<limit>;w=<window seconds>`. */
        "RateLimit-Policy": string;
        /** @description Legacy spelling of `RateLimit-Limit`. */
        "X-RateLimit-Limit": string;
        /** @description Legacy spelling of `RateLimit-Remaining`. */
        "X-RateLimit-Remaining": string;
        /** @description Legacy spelling of `RateLimit-Reset`. */
        "X-RateLimit-Reset": string;
        /** @description Integer seconds to wait before retrying; the client backs off by it. */
        "Retry-After": string;
        /** @description URL of the run or batch to poll (absolute, or relative to the request's URL as RFC 9110 allows). */
        Location: string;
        /** @description Carried by an endpoint being retired (RFC 9745). The description calls it an HTTP date; RFC 9745 writes it as a structured date, `@<epoch seconds>`. Only operations marked `deprecated` carry it. */
        Deprecation: string | components["schemas"]["HttpDate"];
        /** @description Carried by a retiring endpoint once its removal date is fixed (RFC 8594, an HTTP date), at least 180 days after `Deprecation`. The endpoint is served until then. */
        Sunset: components["schemas"]["HttpDate"];
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listSuppressions: {
        parameters: {
            query?: {
                /** @description Filters by reason. */
                reasons?: components["schemas"]["SuppressionReason"][];
                /** @description Maximum number of suppressions to return; greater than 0, at most 1000. */
                limit?: number;
                /** @description Number of suppressions to skip; 0 to 9007199254740991. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The matching suppressions. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListSuppressionsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    createMcpServer: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional idempotency key, at most 255 characters. A retry with the same key and the same request returns the original response and creates no second record; a different request with the same key gets 422; a concurrent retry while the first request still runs gets 409. Keys expire after 24 hours. Multipart file uploads do not accept this header. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": RequestBody<components["schemas"]["CreateMcpServerRequest"]>;
            };
        };
        responses: {
            /** @description The created MCP server. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServerResponse"];
                };
            };
            /** @description The created MCP server. */
            201: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpServerResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    downloadRuns: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional idempotency key, at most 255 characters. A retry with the same key and the same request returns the original response and creates no second record; a different request with the same key gets 422; a concurrent retry while the first request still runs gets 409. Keys expire after 24 hours. Multipart file uploads do not accept this header. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": RequestBody<components["schemas"]["DownloadRunsRequest"]>;
            };
        };
        responses: {
            /** @description A download URL for the exported runs. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DownloadRunsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    updateCurrentWorkspace: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional idempotency key, at most 255 characters. A retry with the same key and the same request returns the original response and creates no second record; a different request with the same key gets 422; a concurrent retry while the first request still runs gets 409. Keys expire after 24 hours. Multipart file uploads do not accept this header. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": RequestBody<components["schemas"]["UpdateWorkspaceRequest"]>;
            };
        };
        responses: {
            /** @description The updated workspace. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    executeQuery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional idempotency key, at most 255 characters. A retry with the same key and the same request returns the original response and creates no second record; a different request with the same key gets 422; a concurrent retry while the first request still runs gets 409. Keys expire after 24 hours. Multipart file uploads do not accept this header. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": RequestBody<components["schemas"]["QueryRequest"]>;
            };
        };
        responses: {
            /** @description The rows of the result. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QueryResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                uuid: components["parameters"]["UuidPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The workflow. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                uuid: components["parameters"]["UuidPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The model. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    cancelDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                uuid: components["parameters"]["UuidPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled domain. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    listAllocations: {
        parameters: {
            query?: {
                /** @description Member identifiers to include. */
                memberUuids?: string[];
                /** @description Capacity identifier. */
                capacityUuid?: components["schemas"]["Uuid"];
                /** @description Territory identifier. */
                territoryUuid?: components["schemas"]["Uuid"];
                /** @description Maximum number of items to return. Its bounds are not shown. */
                limit?: components["parameters"]["UnboundedLimit"];
                /** @description Number of items to skip. Its bounds are not shown. */
                offset?: components["parameters"]["UnboundedOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The matching allocations. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListAllocationsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    removeEnvironmentVariable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                uuid: components["parameters"]["UuidPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An empty JSON object. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmptyResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    listRecipes: {
        parameters: {
            query?: {
                /** @description UI types to include. */
                uiTypes?: ("ai" | "js")[];
                /** @description Which tab of recipes to list. */
                tab?: "all" | "user" | "workspace" | "favorites";
                /** @description Categories to include. */
                categories?: ("other" | "classification" | "cleaning" | "marketing" | "sales" | "event" | "copywriting")[];
                /** @description Name filter. */
                name?: string;
                /** @description Maximum number of items to return. Its bounds are not shown. */
                limit?: components["parameters"]["UnboundedLimit"];
                /** @description Number of items to skip. Its bounds are not shown. */
                offset?: components["parameters"]["UnboundedOffset"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The matching recipes. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ListRecipesResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    createRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional idempotency key, at most 255 characters. A retry with the same key and the same request returns the original response and creates no second record; a different request with the same key gets 422; a concurrent retry while the first request still runs gets 409. Keys expire after 24 hours. Multipart file uploads do not accept this header. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": RequestBody<components["schemas"]["CreateRunRequest"]>;
            };
        };
        responses: {
            /** @description The finished run (only when `waitUntilFinished` is true). */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description The run was accepted; poll the `Location` URL until a terminal status. */
            202: {
                headers: {
                    Location: components["headers"]["Location"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                uuid: components["parameters"]["UuidPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    cancelRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional idempotency key, at most 255 characters. A retry with the same key and the same request returns the original response and creates no second record; a different request with the same key gets 422; a concurrent retry while the first request still runs gets 409. Keys expire after 24 hours. Multipart file uploads do not accept this header. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /** @description Identifier of the resource. */
                uuid: components["parameters"]["UuidPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run was already finished and is returned unchanged. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            /** @description Cancellation was accepted; poll the `Location` URL until a terminal status. */
            202: {
                headers: {
                    Location: components["headers"]["Location"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    createBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional idempotency key, at most 255 characters. A retry with the same key and the same request returns the original response and creates no second record; a different request with the same key gets 422; a concurrent retry while the first request still runs gets 409. Keys expire after 24 hours. Multipart file uploads do not accept this header. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": RequestBody<components["schemas"]["CreateBatchRequest"]>;
            };
        };
        responses: {
            /** @description The batch was accepted; poll the `Location` URL until a terminal status. */
            202: {
                headers: {
                    Location: components["headers"]["Location"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            422: components["responses"]["UnprocessableEntity"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
    getBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the resource. */
                uuid: components["parameters"]["UuidPath"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalServerError"];
        };
    };
}
