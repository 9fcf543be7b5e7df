// node:crypto, loaded when first used. A hook process that talks over the service's private
// socket needs none of it, and loading it cost each hook 10-17 ms of its start on Node 24 (every
// CLI event is a new process on the card's way to the tree: #53/#54, permissionToTreeP95Ms).
// Imported as a type only, so esbuild does not hoist the require to the bundle's start.
import type * as Crypto from 'node:crypto';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when used, see above
export const nodeCrypto = (): typeof Crypto => require('node:crypto') as typeof Crypto;
