// How a figure reaches the article's Embed dialog: the shell registers the dialog here when the page
// starts, and a heatmap's Export menu offers "Embed…" only when one is registered (never in a widget
// or on embed.html, which have no dialog). The figure hands over its JSON export, which is exactly
// what <attention-heatmap data=…> takes (widgets/matrix-spec.ts).

type OpenFigureEmbed = (json: string, title: string, opener: HTMLElement | null) => void;

let openDialog: OpenFigureEmbed | null = null;

export function setFigureEmbed(open: OpenFigureEmbed): void {
  openDialog = open;
}

/** The handler of a figure's "Embed…" item, or undefined where the page has no Embed dialog. */
export function figureEmbedHandler(exportData: () => { title: string } | null): (() => void) | undefined {
  if (!openDialog) return undefined;
  const open = openDialog;
  return () => {
    const data = exportData();
    if (!data) return;
    // the menu has just given the focus back to its button: the dialog returns it there on close
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    open(JSON.stringify(data), data.title, opener);
  };
}
