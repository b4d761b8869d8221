// The compiled server's and sync module's pieces the sync benchmarks drive in process (set-up of
// contracts, nodes and linked stores, the store's agent, the record store), from one dist/ copy.

/** Imports them from `dist` (a file: URL of a compiled copy's root). */
export async function loadSyncModules(dist) {
  const [deps, app, module, contracts, auth, scopes, central, context, link, agent, entities, engine] = await Promise.all([
    import(`${dist}/server/deps.js`),
    import(`${dist}/server/app.js`),
    import(`${dist}/sync/module.js`),
    import(`${dist}/server/platform/contracts/repo.js`),
    import(`${dist}/server/platform/auth/repo.js`),
    import(`${dist}/server/platform/http/scopes.js`),
    import(`${dist}/sync/central.js`),
    import(`${dist}/sync/context.js`),
    import(`${dist}/sync/link.js`),
    import(`${dist}/sync/agent.js`),
    import(`${dist}/sync/entities.js`),
    import(`${dist}/server/db/engine.js`),
  ]);
  return {
    openDeps: deps.openDeps,
    buildApp: app.buildApp,
    syncModule: module.syncModule,
    ContractRepo: contracts.ContractRepo,
    AuthRepo: auth.AuthRepo,
    ALL_SCOPES: scopes.ALL_SCOPES,
    NodeRepo: central.NodeRepo,
    syncContext: context.syncContext,
    LinkRepo: link.LinkRepo,
    SyncAgent: agent.SyncAgent,
    entityNamed: entities.entityNamed,
    expandCompact: entities.expandCompact,
    RecordStore: entities.RecordStore,
    preparePostgres: engine.preparePostgres,
  };
}
