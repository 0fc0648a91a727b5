// What every figure of the lab has in common: a title, one export menu, and update(data). A figure
// says what it can export (its picture as a canvas and as SVG, its numbers as a table and as JSON);
// the base builds the menu from that (export.ts), names the files and downloads them. The title is
// shown in a heading the base makes (an <h3>, a caption…), or only names the menu and the pictures
// where the figure's words are elsewhere on the page. Where the menu goes is the figure's to say:
// in its caption, under its chart, beside another figure's.
import { downloadCanvas, downloadCsv, downloadHtml, downloadJson, downloadSvg, exportButtons, nameExportMenu, type ExportHandlers, type Translate } from './export';

/** Numbers with a label per row and per column (row-major values), as the CSV export writes them. */
export interface FigureTable {
  rowLabels: readonly string[];
  colLabels: readonly string[];
  values: ArrayLike<number>;
}

/** What a figure can export; each gives null while it has nothing to export (no data yet). */
export interface FigureExports {
  /** the picture under `title`, as a canvas (the PNG) */
  png?: (title: string) => Promise<HTMLCanvasElement | null>;
  /** the picture under `title`, as SVG text */
  svg?: (title: string) => Promise<string | null>;
  table?: () => FigureTable | null;
  json?: () => unknown;
  /** one HTML file that shows the figure offline (embed/standalone.ts) */
  html?: () => Promise<string | null>;
  /** opens the Embed dialog for the figure (no file: embed/figure-embed.ts) */
  embed?: () => void | Promise<void>;
}

export interface FigureOptions {
  title: string;
  /** the section's strings (the menu's labels; the figure strings fill the gaps); no menu without them */
  t?: Translate;
  /** the element that shows the title (none: the title names the menu and the pictures only) */
  heading?: { tag: 'h3' | 'span' | 'figcaption'; className?: string };
  /** the menu's name for screen readers ("Export …"): the title unless given here; null: none */
  label?: string | null;
  /** the export files' name (without extension; export-files.ts makes it safe): the title unless given */
  fileName?: string | (() => string);
  /** the pictures' file name where they show less than the numbers (one chart of several) */
  pictureName?: string;
  exports?: FigureExports;
}

export abstract class Figure<D> {
  /** the element showing the title, or null; the figure places it */
  readonly heading: HTMLElement | null;
  /** the export menu (null: nothing to export); the figure places it */
  readonly menu: HTMLElement | null = null;
  readonly #options: FigureOptions;
  #title: string;

  constructor(options: FigureOptions) {
    const { title, t, heading, label, exports } = options;
    this.#options = options;
    this.#title = title;
    this.heading = heading ? document.createElement(heading.tag) : null;
    if (heading?.className) this.heading!.className = heading.className;
    this.heading?.append(title);
    if (t && exports) this.menu = exportButtons(t, this.#handlers(exports), (label === undefined ? title : label) || undefined);
  }

  get title(): string {
    return this.#title;
  }

  set title(text: string) {
    this.#title = text;
    // the heading's text is replaced, not a text node kept (the page's language runs split it into
    // spans: shell/lang-runs.ts); a menu placed in the heading stays where it is
    for (const node of [...(this.heading?.childNodes ?? [])]) if (node !== this.menu) node.remove();
    this.heading?.prepend(text);
    if (this.menu && text && this.#options.label === undefined) nameExportMenu(this.menu, this.#options.t!, text);
  }

  /** Shows new data. */
  abstract update(data: D): void;

  #handlers(e: FigureExports): ExportHandlers {
    const { fileName, pictureName } = this.#options;
    const dataName = (): string => (typeof fileName === 'function' ? fileName() : (fileName ?? this.title));
    const pictureFile = (): string => pictureName ?? dataName();
    // makes the file's content, then downloads it under the figure's name (no content yet: no file)
    const file = <T>(make: (() => T | null | Promise<T | null>) | undefined, save: (name: string, content: T) => unknown, name = dataName) =>
      make &&
      (async () => {
        const content = await make();
        if (content !== null && content !== undefined) await save(name(), content);
      });
    return {
      png: file(e.png && (() => e.png!(this.title)), downloadCanvas, pictureFile),
      svg: file(e.svg && (() => e.svg!(this.title)), downloadSvg, pictureFile),
      csv: file(e.table, (name, table) => downloadCsv(name, table.rowLabels, table.colLabels, table.values)),
      json: file(e.json, downloadJson),
      html: file(e.html, downloadHtml),
      embed: e.embed,
    };
  }
}
