// The article could not start (its shell failed to load or to construct): say why where the
// article would be. Shared by the entry (main.ts) and the shell, so it is not in the shell's chunk.
export function showBootError(err: unknown): void {
  const status = document.getElementById('boot-status') ?? document.body.appendChild(document.createElement('p'));
  status.textContent = `Could not start: ${err instanceof Error ? err.message : String(err)}`;
  document.body.dataset.ready = 'error';
}
