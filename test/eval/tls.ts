/**
 * TLS for the eval's page server, so pages of hosts on Chromium's HSTS preload list (medium.com,
 * wikipedia.org, theguardian.com, ...) load under their own names: Chromium upgrades those to https
 * (same port), which a plain-HTTP page server cannot answer. A throwaway CA (one day, key in a temp
 * directory) signs one certificate for every host of the corpus; the CA is trusted in the NSS
 * database Chromium reads on Linux ($HOME/.pki/nssdb) for the run and removed afterwards.
 * Needs `openssl` and `certutil` (Debian: libnss3-tools); without them the eval says so and falls back
 * to asking those pages at the server's own address, as before.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ThrowawayTls {
  key: string;
  cert: string;
  /** Removes the CA from the NSS database and deletes its files. */
  cleanup(): void;
}

function has(bin: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A certificate for `hosts` from a CA trusted by this user's Chromium for the run; or why not. */
export function throwawayTls(hosts: readonly string[]): ThrowawayTls | { unavailable: string } {
  const missing = ['openssl', 'certutil'].filter((b) => !has(b));
  if (missing.length) return { unavailable: `${missing.join(' and ')} not found (Debian: apt-get install openssl libnss3-tools)` };
  const dir = mkdtempSync(join(tmpdir(), 'enrich-eval-tls-'));
  const nssdb = `sql:${join(homedir(), '.pki', 'nssdb')}`;
  const nick = `enrich-eval-${process.pid}-${Date.now()}`;
  const run = (bin: string, args: string[]): void => void execFileSync(bin, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let trusted = false;
  const cleanup = (): void => {
    if (trusted) {
      try {
        run('certutil', ['-d', nssdb, '-D', '-n', nick]);
      } catch {
        // already gone
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=enrich eval throwaway CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
    ]);
    run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=enrich eval pages', '-keyout', 'leaf.key', '-out', 'leaf.csr']);
    const names = [...new Set(hosts)].map((h) => `DNS:${h}`).join(',');
    writeFileSync(join(dir, 'leaf.ext'), `subjectAltName=${names}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`);
    run('openssl', [
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      'leaf.ext',
      '-out',
      'leaf.pem',
    ]);
    const dbDir = join(homedir(), '.pki', 'nssdb');
    if (!existsSync(join(dbDir, 'cert9.db'))) {
      mkdirSync(dbDir, { recursive: true });
      run('certutil', ['-d', nssdb, '-N', '--empty-password']);
    }
    run('certutil', ['-d', nssdb, '-A', '-t', 'C,,', '-n', nick, '-i', join(dir, 'ca.pem')]);
    trusted = true;
    return { key: readFileSync(join(dir, 'leaf.key'), 'utf8'), cert: readFileSync(join(dir, 'leaf.pem'), 'utf8'), cleanup };
  } catch (err) {
    cleanup();
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    return { unavailable: `could not make or trust a throwaway CA: ${stderr || (err as Error).message}` };
  }
}
