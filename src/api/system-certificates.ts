// The system's trusted certificates, for `http.systemCertificates` (company roots that a proxy
// re-signs with live there, not in Node's own list). Node 22.15+ reads the system store itself;
// an older Node (VS Code 1.93's extension host runs Node 20) reads the usual Linux bundle files.
import * as fs from 'node:fs';
import * as tls from 'node:tls';

const LINUX_BUNDLES = [
  '/etc/ssl/certs/ca-certificates.crt', // Debian, Ubuntu, Arch
  '/etc/pki/tls/certs/ca-bundle.crt', // Fedora, RHEL
  '/etc/ssl/ca-bundle.pem', // openSUSE
  '/etc/ssl/cert.pem', // Alpine, macOS
];

const PEM = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export function systemCertificates(
  read: (file: string) => string | undefined = readIfThere,
  fromNode = (tls as { getCACertificates?: (kind: 'system') => string[] }).getCACertificates,
): string[] {
  if (fromNode) {
    try { return fromNode('system'); } catch { /* fall back to the files */ }
  }
  for (const file of LINUX_BUNDLES) {
    const text = read(file);
    if (text) return text.match(PEM) ?? [];
  }
  return [];
}

function readIfThere(file: string): string | undefined {
  try { return fs.readFileSync(file, 'utf8'); } catch { return undefined; }
}
