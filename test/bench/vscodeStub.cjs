// A stand-in for the `vscode` module, enough to run the extension's `activate()` under plain Node:
// for the bench's fallback activation timing (test/bench/activation.cjs) and the unit test of the
// activation hook. Not a VS Code: every API call returns at once and does nothing.
//
// The APIs activation relies on for values are real enough (configuration defaults, event emitters,
// URIs, disposables, output channels that record their lines); anything else is a universal stub:
// callable, constructible, every property another stub, never thenable (so `await` on it resolves).
'use strict';

/**
 * The user setting `mcpRoundtrip.servers` the stub reports: MCP_ROUNDTRIP_BENCH_SERVERS (a count) stdio
 * servers, `bench-server-<i>`, each a Node command that would start a server if it were ever started
 * (test/bench/activation.cjs counts the processes activation starts: there must be none).
 */
function configuredServers() {
  const n = Number(process.env.MCP_ROUNDTRIP_BENCH_SERVERS ?? 0);
  if (!n) return undefined;
  const servers = Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      `bench-server-${i}`,
      { type: 'stdio', command: process.execPath, args: ['-e', `/* bench-server-${i} */`] },
    ]),
  );
  return { key: 'mcpRoundtrip.servers', globalValue: servers };
}

/**
 * A universal stub: any property is another stub, calling or constructing one returns a stub.
 * `then` is undefined (not a promise); it converts to '' and iterates as empty.
 */
function anything(name = 'vscode') {
  const target = function stub() {};
  return new Proxy(target, {
    get(_t, key) {
      if (key === 'then') return undefined;
      if (key === Symbol.toPrimitive) return () => '';
      if (key === Symbol.iterator) return function* () {};
      if (key === 'toString' || key === 'toJSON') return () => '';
      if (key === 'dispose') return () => {};
      return anything(`${name}.${String(key)}`);
    },
    apply: () => anything(`${name}()`),
    construct: () => anything(`new ${name}`),
  });
}

class Disposable {
  /** @param {() => void} [fn] */
  constructor(fn) {
    this.fn = fn;
  }
  static from(...items) {
    return new Disposable(() => items.forEach((d) => d?.dispose?.()));
  }
  dispose() {
    this.fn?.();
    this.fn = undefined;
  }
}

class EventEmitter {
  constructor() {
    this.listeners = new Set();
    this.event = (listener) => {
      this.listeners.add(listener);
      return new Disposable(() => this.listeners.delete(listener));
    };
  }
  fire(value) {
    for (const l of [...this.listeners]) l(value);
  }
  dispose() {
    this.listeners.clear();
  }
}

/** VS Code's file system error: `code` names the fault (`FileNotFound`, ...). */
class FileSystemError extends Error {
  constructor(message, code = 'Unknown') {
    super(message);
    this.code = code;
  }
  static FileNotFound(what) {
    return new FileSystemError(`${String(what)} not found`, 'FileNotFound');
  }
}

class Uri {
  constructor(scheme, path, query = '', fragment = '', authority = '') {
    Object.assign(this, { scheme, path, query, fragment, authority });
  }
  get fsPath() {
    return this.path;
  }
  static file(p) {
    return new Uri('file', p);
  }
  static parse(s) {
    const u = new URL(s);
    return new Uri(
      u.protocol.replace(/:$/, ''),
      decodeURIComponent(u.pathname),
      u.search.replace(/^\?/, ''),
      u.hash.replace(/^#/, ''),
      u.host,
    );
  }
  static from(parts) {
    return new Uri(parts.scheme, parts.path ?? '', parts.query, parts.fragment, parts.authority);
  }
  static joinPath(base, ...segments) {
    return new Uri(base.scheme, [base.path.replace(/\/$/, ''), ...segments].join('/'), '', '', base.authority);
  }
  with(change) {
    return Object.assign(new Uri(this.scheme, this.path, this.query, this.fragment, this.authority), change);
  }
  toString() {
    return `${this.scheme}://${this.authority}${this.path}`;
  }
  toJSON() {
    return this.toString();
  }
}

/** Output channels created through the stub, with the lines logged to each (for tests). */
const channels = [];

function outputChannel(name) {
  const lines = [];
  const log = (level) => (text) => void lines.push(`[${level}] ${text}`);
  const channel = {
    name,
    lines,
    logLevel: 2,
    onDidChangeLogLevel: new EventEmitter().event,
    append: (t) => void lines.push(t),
    appendLine: (t) => void lines.push(t),
    replace: () => {},
    clear: () => {},
    show: () => {},
    hide: () => {},
    dispose: () => {},
    trace: log('trace'),
    debug: log('debug'),
    info: log('info'),
    warn: log('warning'),
    error: log('error'),
  };
  channels.push(channel);
  return channel;
}

const event = () => new EventEmitter().event;
/** The webview panels created, in order. */
const panels = [];
/** Quick picks shown, with their items and the function that answers them. */
const quickPicks = [];
const disposable = () => new Disposable();
/** Status bar items created, in order (`show()` / `hide()` set `visible`). */
const statusBarItems = [];

function statusBarItem(id, alignment, priority) {
  const item = {
    id,
    alignment,
    priority,
    text: '',
    tooltip: undefined,
    command: undefined,
    name: undefined,
    accessibilityInformation: undefined,
    visible: false,
    disposed: false,
    show: () => void (item.visible = true),
    hide: () => void (item.visible = false),
    dispose: () => void ((item.visible = false), (item.disposed = true)),
  };
  statusBarItems.push(item);
  return item;
}

/**
 * `vscode.l10n.t` as VS Code runs it with no bundle (English): `{0}`, `{1}` ... from the arguments
 * after the message, `{name}` from a record given as the only one; also `t({ message, args })`.
 */
function l10nT(first, ...rest) {
  const message = typeof first === 'string' ? first : first.message;
  const args = typeof first === 'string' ? rest : (first.args ?? []);
  const named = args.length === 1 && args[0] && typeof args[0] === 'object' ? args[0] : undefined;
  return message.replace(/\{([^}]+)\}/g, (whole, key) => {
    const v = named ? named[key] : args[Number(key)];
    return v === undefined ? whole : String(v);
  });
}

/** VS Code's HTTP MCP server definition, as the chat bridge builds it. */
class McpHttpServerDefinition {
  constructor(label, uri, headers = {}, version) {
    this.label = label;
    this.uri = uri;
    this.headers = headers;
    this.version = version;
  }
}

/** User settings a test sets (`'mcpRoundtrip.servers'` → value), read before the stub's own. */
const userSettings = new Map();

/** The MCP server definition providers registered, by id (a test asks them as VS Code's chat would). */
const mcpProviders = new Map();

const api = {
  Disposable,
  McpHttpServerDefinition,
  EventEmitter,
  FileSystemError,
  Uri,
  ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
  TreeItem: class TreeItem {
    constructor(label, collapsibleState) {
      this.label = label;
      this.collapsibleState = collapsibleState;
    }
  },
  ThemeIcon: class ThemeIcon {
    constructor(id, color) {
      this.id = id;
      this.color = color;
    }
  },
  MarkdownString: class MarkdownString {
    constructor(value = '') {
      this.value = value;
    }
    appendMarkdown(v) {
      this.value += v;
      return this;
    }
    appendText(v) {
      this.value += v;
      return this;
    }
  },
  RelativePattern: class RelativePattern {
    constructor(base, pattern) {
      this.base = base;
      this.pattern = pattern;
    }
  },
  CancellationTokenSource: class CancellationTokenSource {
    constructor() {
      this.token = { isCancellationRequested: false, onCancellationRequested: event() };
    }
    cancel() {
      this.token.isCancellationRequested = true;
    }
    dispose() {}
  },
  window: {
    createOutputChannel: (name) => outputChannel(name),
    /** Records the items created (`__statusBarItems`); `createStatusBarItem(id, alignment, priority)`. */
    createStatusBarItem: (id, alignment, priority) => statusBarItem(id, alignment, priority),
    /** The window's state: a test may set `focused`. */
    state: { focused: true, active: true },
    onDidChangeWindowState: event(),
    createTreeView: () => ({ dispose: () => {}, onDidChangeVisibility: event(), onDidChangeSelection: event(), visible: false }),
    registerWebviewPanelSerializer: disposable,
    registerTreeDataProvider: disposable,
    onDidChangeActiveTextEditor: event(),
    activeTextEditor: undefined,
    /** Records each quick pick shown; the test answers it (`__quickPicks[i].answer(item)`). */
    showQuickPick: (items, options) =>
      new Promise((resolve) => {
        quickPicks.push({ items, options, answer: resolve });
      }),
    /** Records the panels created (the bench hook's bare webview). */
    createWebviewPanel: (viewType, title) => {
      const disposed = new EventEmitter();
      const panel = { viewType, title, webview: { html: '' }, onDidDispose: disposed.event, dispose: () => disposed.fire() };
      panels.push(panel);
      return panel;
    },
  },
  commands: {
    registerCommand: disposable,
    executeCommand: async () => undefined,
  },
  workspace: {
    workspaceFolders: undefined,
    isTrusted: true,
    getConfiguration: (section) => ({
      get: (_key, fallback) => fallback,
      has: () => false,
      inspect: (key) =>
        userSettings.has(`${section}.${key}`)
          ? { key: `${section}.${key}`, globalValue: userSettings.get(`${section}.${key}`) }
          : section === 'mcpRoundtrip' && key === 'servers'
            ? configuredServers()
            : undefined,
      update: async () => {},
    }),
    onDidChangeConfiguration: event(),
    onDidChangeWorkspaceFolders: event(),
    onDidGrantWorkspaceTrust: event(),
    registerTextDocumentContentProvider: disposable,
    createFileSystemWatcher: () => ({ onDidChange: event(), onDidCreate: event(), onDidDelete: event(), dispose: () => {} }),
    fs: { readFile: async () => Buffer.alloc(0), stat: async () => ({ type: 1, size: 0 }) },
  },
  env: { openExternal: async () => false, language: 'en', appName: 'Node stub' },
  lm: {
    selectChatModels: async () => [],
    onDidChangeChatModels: event(),
    registerMcpServerDefinitionProvider: (id, provider) => {
      mcpProviders.set(id, provider);
      return new Disposable(() => mcpProviders.get(id) === provider && mcpProviders.delete(id));
    },
    tools: [],
  },
  chat: { createChatParticipant: (id) => ({ id, dispose: () => {} }) },
  // Present from the start: a module compiled with `import * as vscode` copies only the keys there are when it loads.
  authentication: { getSession: async () => undefined, onDidChangeSessions: event() },
  l10n: { t: l10nT, bundle: undefined, uri: undefined },
};

/** The stub module: the explicit parts above, a universal stub for anything else. */
module.exports = new Proxy(api, {
  get(target, key) {
    if (key in target) return target[key];
    if (key === '__esModule' || key === 'then' || key === 'default') return key === 'default' ? module.exports : undefined;
    if (key === '__channels') return channels;
    if (key === '__panels') return panels;
    if (key === '__quickPicks') return quickPicks;
    if (key === '__statusBarItems') return statusBarItems;
    if (key === '__mcpProviders') return mcpProviders;
    if (key === '__userSettings') return userSettings;
    return anything(`vscode.${String(key)}`);
  },
});

/**
 * A minimal `ExtensionContext` for `activate()` under the stub.
 * @param {string} extensionPath the extension's folder (the repository)
 * @param {Record<string, unknown>} packageJSON its manifest
 */
module.exports.__context = function context(extensionPath, packageJSON) {
  const memento = () => {
    const m = new Map();
    return {
      get: (k, d) => (m.has(k) ? m.get(k) : d),
      update: async (k, v) => void m.set(k, v),
      keys: () => [...m.keys()],
      setKeysForSync: () => {},
    };
  };
  const uri = Uri.file(extensionPath);
  return {
    subscriptions: [],
    extensionPath,
    extensionUri: uri,
    extension: { id: `${packageJSON.publisher}.${packageJSON.name}`, extensionUri: uri, extensionPath, packageJSON, isActive: true },
    globalState: memento(),
    workspaceState: memento(),
    secrets: { get: async () => undefined, store: async () => {}, delete: async () => {}, onDidChange: event() },
    globalStorageUri: Uri.file(`${extensionPath}/.bench-storage`),
    storageUri: undefined,
    logUri: Uri.file(`${extensionPath}/.bench-logs`),
    extensionMode: 1,
    asAbsolutePath: (p) => `${extensionPath}/${p}`,
    environmentVariableCollection: anything('environmentVariableCollection'),
  };
};
