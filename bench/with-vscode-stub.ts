// Imported first (side effect): from here on `require('vscode')` gets the bench's stub.
import { installVscodeStub } from './vscode-stub';

installVscodeStub();
