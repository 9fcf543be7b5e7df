// One TreeView per view id for the life of the extension, whose rows come from a source that can
// be swapped. VS Code 1.93 leaves a view blank for good (no rows, no welcome, no error) when a
// TreeView is made again for a view id whose first TreeView was disposed; so a new service
// address (a new client core) swaps the source instead of making the view again.
import * as vscode from 'vscode';

const EMPTY: vscode.TreeDataProvider<never> = {
  getTreeItem: (element: never) => element,
  getChildren: () => [],
};

export class TreeViewSlot<T> implements vscode.Disposable {
  readonly view: vscode.TreeView<T>;
  private source: vscode.TreeDataProvider<T> = EMPTY;
  private sourceChanges: vscode.Disposable | undefined;
  private readonly changed = new vscode.EventEmitter<T | T[] | undefined | void>();

  constructor(viewId: string) {
    const provider: vscode.TreeDataProvider<T> = {
      onDidChangeTreeData: this.changed.event,
      getTreeItem: (el) => this.source.getTreeItem(el),
      getChildren: (el) => this.source.getChildren(el),
      getParent: (el) => this.source.getParent?.(el),
    };
    this.view = vscode.window.createTreeView(viewId, { treeDataProvider: provider, showCollapseAll: true });
  }

  /**
   * Shows `source`'s rows until the returned disposable is disposed; then the view is empty again
   * (its welcome shows), unless another source took over meanwhile.
   */
  show(source: vscode.TreeDataProvider<T>): vscode.Disposable {
    this.use(source);
    return { dispose: () => { if (this.source === source) this.use(EMPTY); } };
  }

  private use(source: vscode.TreeDataProvider<T>): void {
    this.sourceChanges?.dispose();
    this.source = source;
    this.sourceChanges = source.onDidChangeTreeData?.((e) => this.changed.fire(e ?? undefined));
    if (source === EMPTY) {
      // What the last source put on the view must not outlive it.
      this.view.badge = undefined;
      this.view.description = undefined;
      this.view.message = undefined;
    }
    this.changed.fire(undefined);
  }

  dispose(): void {
    this.sourceChanges?.dispose();
    this.changed.dispose();
    this.view.dispose();
  }
}
