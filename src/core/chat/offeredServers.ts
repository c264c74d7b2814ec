/**
 * What the bridge last offered VS Code (the servers and their tool-list versions), so that
 * `onDidChangeMcpServerDefinitions` fires only for a real change: a server added or removed, or a
 * tool list that changed after VS Code had seen it. Learning a server's first version is no change
 * (VS Code just listed those tools itself).
 */
import { toolsVersion } from './exposure';

/** The servers offered and their versions, as VS Code last read them. */
export class OfferedServers {
  private readonly versions = new Map<string, string>();
  private offered = '';

  /** The version of `server`'s definition: its tool list's digest, once listed. */
  version(server: string): string | undefined {
    return this.versions.get(server);
  }

  /** VS Code read the definitions of `servers`. */
  provided(servers: readonly string[]): void {
    this.offered = this.signature(servers);
  }

  /**
   * The bridge listed `server`'s tools (`servers`: every server offered now).
   * @returns true when VS Code should be told: a tool list it had seen changed
   */
  listed(server: string, tools: readonly unknown[], servers: readonly string[]): boolean {
    const first = !this.versions.has(server);
    this.versions.set(server, toolsVersion(tools));
    if (!first) return this.changed(servers);
    this.offered = this.signature(servers);
    return false;
  }

  /** True when `servers` (and their versions) differ from what VS Code last read. */
  changed(servers: readonly string[]): boolean {
    return this.signature(servers) !== this.offered;
  }

  private signature(servers: readonly string[]): string {
    return JSON.stringify(servers.map((s) => [s, this.versions.get(s)]));
  }
}
