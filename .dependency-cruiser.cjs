/**
 * The import boundaries between LAN Party's parts, checked by `npm run lint:deps` (part of `npm test`).
 * docs/architecture.md draws the same arrows; tests/architecture/boundaries.test.ts shows each rule failing
 * on a fixture tree. Paths are relative to the cruise's base directory; npm packages are matched by
 * "(^|/)node_modules/NAME/" so the rules read the same when a fixture tree resolves the project's packages.
 * Imports that broke a rule when it was written are listed in .dependency-cruiser-known-violations.json and
 * pass until fixed (then `npm run lint:deps:baseline` shrinks the list); any other break fails.
 */

/** The feature folders of the main process; each owns its service, its IPC handlers and its views. */
const FEATURES = ['shell', 'lobby', 'lan', 'game', 'netcheck', 'settings', 'conditioner', 'rendezvous'];
/** Entries that wire features together besides the composition root: the dedicated host CLI and the dev server. */
const ENTRIES = ['cli', 'devServer'];
/** Every main/ folder whose code a feature may not run: other features, the ipc gateway (features name only
 * its handler types) and the entries. */
const WIRED = [...FEATURES, 'ipc', ...ENTRIES];

/**
 * shared/'s parts (its folders) from the top down. A part imports its own files, the parts of its row and of lower
 * rows, never a part of a row above. A new part gets a place here.
 */
const SHARED_LAYERS = [
  ['rendezvous'],
  ['ipc'],
  ['lobby'],
  ['games'],
  ['game'],
  ['roomCode'],
  ['netcheck'],
  ['codec', 'net', 'random', 'text'],
];

const anyOf = (names) => `(${names.join('|')})`;
const npm = (name) => `(^|/)node_modules/${name}/`;
const electron = `(^|/)node_modules/electron/|^electron$`;

module.exports = {
  forbidden: [
    // ---- floors: no import runs back up ----------------------------------------------------------------
    {
      name: 'shared-no-node-builtins',
      comment: 'shared/ runs in the sandboxed renderer as well as in main: a Node built-in breaks the renderer.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'shared-no-electron',
      comment: 'shared/ must load in plain Node (tests, CLI, dev server) and in the page, neither has Electron.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: electron },
    },
    {
      name: 'shared-no-react-or-dom',
      comment: 'shared/ is logic both processes run; React and the DOM belong to renderer/.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: [npm('react'), npm('react-dom')] },
    },
    {
      name: 'shared-imports-only-shared',
      comment: 'shared/ is the bottom floor: it imports itself and zod (the IPC schemas), nothing of the app.',
      severity: 'error',
      from: { path: '^shared/' },
      to: {
        dependencyTypesNot: ['core'],
        pathNot: ['^shared/', npm('zod'), electron, npm('react'), npm('react-dom')],
      },
    },
    // One rule per row of SHARED_LAYERS below the first, all under one name: a part imports no part above its row.
    ...SHARED_LAYERS.slice(1).map((row, index) => ({
      name: 'shared-parts-import-downward',
      comment: `shared/${anyOf(row)} sits below ${SHARED_LAYERS.slice(0, index + 1)
        .flat()
        .join(', ')} (SHARED_LAYERS): an import back up would tie a lower part to one built on it.`,
      severity: 'error',
      from: { path: `^shared/${anyOf(row)}/` },
      to: { path: SHARED_LAYERS.slice(0, index + 1).map((above) => `^shared/${anyOf(above)}/`) },
    })),
    {
      name: 'base-imports-only-shared',
      comment:
        'main/base (logger, network options, listeners) is what everything in main may import, so it imports nothing above it.',
      severity: 'error',
      from: { path: '^main/base/' },
      to: { dependencyTypesNot: ['core'], pathNot: ['^main/base/', '^shared/'] },
    },
    {
      name: 'net-is-a-library',
      comment:
        'main/net is the transport library (a game developer uses it alone): it never imports a feature, only main/base and shared/.',
      severity: 'error',
      from: { path: '^main/net/' },
      // Packages on purpose: ICE (main/net/ice) runs werift-ice and checks peers' parameters with zod; the
      // PAKE (main/net/secure/cpace.ts) uses @noble's audited ristretto255 and SHA-512.
      to: {
        dependencyTypesNot: ['core'],
        pathNot: [
          '^main/net/',
          '^main/base/',
          '^shared/',
          npm('werift-ice'),
          npm('zod'),
          npm('@noble/curves'),
          npm('@noble/hashes'),
        ],
      },
    },

    // ---- inside main/net: endpoint on top of v1, native, codec and discovery ---------------------------
    {
      name: 'net-parts-below-endpoint',
      comment:
        'Server/Client/Peer (endpoint/) drive the wire formats; a wire format that reaches back up cannot be tested or reused alone.',
      severity: 'error',
      from: { path: '^main/net/(?!endpoint/)[^/]+/' },
      // The socket seam (its interfaces and its UDP default, a leaf) is below everything: ICE and the secure socket
      // implement it, discovery and the probes open their sockets through it.
      to: {
        path: ['^main/net/endpoint/', '^main/net/index\\.ts$'],
        pathNot: '^main/net/endpoint/(datagramSocket|udpSocket)\\.ts$',
      },
    },
    {
      name: 'v1-is-the-reference-format',
      comment:
        'v1 is the gale.net wire format as the reference speaks it; native builds on its reliable sender, never the other way.',
      severity: 'error',
      from: { path: '^main/net/v1/' },
      to: { path: '^main/net/(native|codec|discovery)/' },
    },
    {
      name: 'codec-only-needs-the-serializer',
      comment: 'The codec plugs into the Serializer interface of v1 and knows nothing of connections or discovery.',
      severity: 'error',
      from: { path: '^main/net/codec/' },
      to: { path: '^main/net/(native|discovery)/' },
    },
    {
      name: 'discovery-stands-alone',
      comment:
        'LAN discovery is its own UDP protocol (adverts, not connections): it shares no code with the wire formats.',
      severity: 'error',
      from: { path: '^main/net/discovery/' },
      to: { path: '^main/net/(v1|native|codec)/' },
    },

    // ---- features -----------------------------------------------------------------------------------------
    {
      name: 'no-runtime-import-between-features',
      comment:
        "A feature runs none of another feature's code: createBackend passes services in. A type-only import of another " +
        "feature's interface (erased at build time) is allowed, so a consumer can name what it is handed.",
      severity: 'error',
      from: { path: `^main/${anyOf(FEATURES)}/` },
      to: { path: `^main/${anyOf(WIRED)}/`, pathNot: '^main/$1/', dependencyTypesNot: ['type-only'] },
    },
    // ---- reaches: how a room is reached, below the features -----------------------------------------------
    {
      name: 'reach-runs-no-feature',
      comment:
        'main/reach (the LAN and internet reaches behind the RoomReach port) sits below the features: the lobby and ' +
        'the conditioner build on it, so it runs none of their code, nor the gateway or an entry.',
      severity: 'error',
      from: { path: '^main/reach/' },
      to: { path: `^main/${anyOf(WIRED)}/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'seats-run-no-feature',
      comment:
        "main/seats (a room's seats: resume tokens, held seats, a guest's resumable link) sits below the lobby, which " +
        'builds its admission on it: it runs no feature, gateway or entry code.',
      severity: 'error',
      from: { path: '^main/seats/' },
      to: { path: `^main/${anyOf(WIRED)}/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'lobby-sees-only-reach-doors',
      comment:
        'The lobby knows a reach by its port (main/reach/roomReach.ts) and its index.ts, never by its insides, so a reach ' +
        "can change (ICE restart, a key exchange) without touching the room's state.",
      severity: 'error',
      from: { path: '^main/lobby/' },
      to: { path: '^main/reach/', pathNot: ['^main/reach/roomReach\\.ts$', '^main/reach/[^/]+/index\\.ts$'] },
    },
    {
      name: 'secure-only-in-the-internet-reach',
      comment:
        "Sealing datagrams (main/net/secure) is the internet reach's business: a feature that did it too would be a " +
        'second key exchange to keep right.',
      severity: 'error',
      from: { path: '^main/', pathNot: ['^main/net/', '^main/reach/internet/'] },
      to: { path: '^main/net/secure/' },
    },
    {
      name: 'ice-only-in-the-internet-reach',
      comment:
        'ICE paths and the socket mux (main/net/ice) are opened by the internet reach alone; the rendezvous server ' +
        'also uses it, to mint the TURN credentials those paths log in with.',
      severity: 'error',
      from: { path: '^main/', pathNot: ['^main/net/', '^main/reach/internet/', '^main/rendezvous/'] },
      to: { path: '^main/net/ice/' },
    },
    {
      name: 'ipc-imports-no-feature',
      comment:
        'main/ipc is the generic gateway and its bindings: features register handlers with it, it never names one.',
      severity: 'error',
      from: { path: '^main/ipc/' },
      to: { path: [`^main/${anyOf([...FEATURES, ...ENTRIES])}/`, '^main/net/', '^main/createBackend\\.ts$'] },
    },
    {
      name: 'only-entries-wire-the-app',
      comment:
        'createBackend.ts is the composition root; only the entries (Electron main, host CLI, dev server) call it.',
      severity: 'error',
      from: { path: '^main/', pathNot: [`^main/${anyOf(ENTRIES)}/`, '^main/index\\.ts$'] },
      to: { path: ['^main/createBackend\\.ts$', '^main/index\\.ts$'] },
    },
    {
      name: 'net-through-its-doors',
      comment:
        "Outside main/net, the transport is used through main/net/index.ts (the public API) or a part's own index.ts " +
        '(discovery, codec), so its internals can change without touching features.',
      severity: 'error',
      from: { path: '^main/', pathNot: '^main/net/' },
      to: { path: '^main/net/', pathNot: ['^main/net/index\\.ts$', '^main/net/[^/]+/index\\.ts$'] },
    },
    {
      name: 'electron-only-in-the-shell',
      comment:
        'Only the shell, the Electron entry and the Electron IPC binding run Electron code; everything else must run in plain ' +
        'Node (tests, host CLI, dev server). Type-only imports in main/ are erased and allowed.',
      severity: 'error',
      from: {
        path: '^main/',
        pathNot: ['^main/shell/', '^main/index\\.ts$', '^main/ipc/electronBinding\\.ts$'],
      },
      to: { path: electron, dependencyTypesNot: ['type-only'] },
    },

    // ---- the two other processes --------------------------------------------------------------------------
    {
      name: 'renderer-imports-only-renderer-and-shared',
      comment:
        'The renderer is a sandboxed web page: it talks to main only through the preload bridge (shared/ipc types).',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(main|preload|tests|bench|scripts)/' },
    },
    {
      name: 'renderer-no-node-builtins',
      comment: 'The renderer runs without Node integration; a built-in would fail in the page.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'preload-imports-only-shared-ipc',
      comment:
        "The sandboxed preload exposes the IPC contract and nothing else: shared/ipc plus Electron's contextBridge.",
      severity: 'error',
      from: { path: '^preload/' },
      to: { pathNot: ['^preload/', '^shared/ipc/', electron] },
    },

    // ---- hygiene ------------------------------------------------------------------------------------------
    {
      name: 'no-circular',
      comment: 'A cycle makes load order matter and both modules impossible to understand or test alone.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans-in-main',
      comment: 'A main/ module nothing imports and that imports nothing is dead code (entries and configs excepted).',
      severity: 'error',
      from: {
        orphan: true,
        path: '^main/',
        pathNot: ['^main/index\\.ts$', '^main/cli/hostCli\\.ts$', '\\.config\\.ts$', '\\.d\\.ts$'],
      },
      to: {},
    },
    {
      name: 'app-code-not-into-tests',
      comment: 'tests/, bench/ and scripts/ may import anything; nothing that ships imports them.',
      severity: 'error',
      from: { path: '^(main|shared|renderer|preload)/' },
      to: { path: '^(tests|bench|scripts)/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import the tool cannot resolve is one no rule can check (tsc would also reject it).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Report what package.json's files import, not what the packages import.
    doNotFollow: { path: 'node_modules' },
    // The fixture tree under tests/fixtures/boundaries breaks every rule on purpose; the test cruises it alone.
    exclude: { path: ['^tests/fixtures/boundaries/', '^(dist|dist-electron|dist-bench|release|test-output)/'] },
    // Keep type-only imports in the graph: the floor rules apply to types too.
    tsPreCompilationDeps: true,
    // Resolve packages the way Node and the bundler do (vite and its plugins only have an "exports" map).
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
