// What every figure of the lab has in common: a title, one export menu, and update(data). A figure
// says what it can export (its picture as a canvas and as SVG, its numbers as a table and as JSON);
// the base builds the menu from that (export.ts), names the files and downloads them. The title is
// shown in a heading the base makes (an <h3>, a caption…), or only names the menu and the pictures
// where the figure's words are elsewhere on the page. Where the menu goes is the figure's to say:
// in its caption, under its chart, beside another figure's.
import { downloadCanvas, downloadCsv, downloadHtml, downloadJson, downloadSvg, exportButtons, type ExportHandlers, type Translate } from './export';
import { figureTranslator } from './figure-strings';
import { fill } from './i18n';

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
  /** the heading's text: a node of its own, so a menu placed in the heading stays when the title changes */
  readonly #text = document.createTextNode('');
  #title = '';

  constructor(options: FigureOptions) {
    this.#options = options;
    this.heading = options.heading ? document.createElement(options.heading.tag) : null;
    if (this.heading) {
      if (options.heading?.className) this.heading.className = options.heading.className;
      this.heading.append(this.#text);
    }
    this.#title = this.#text.data = options.title;
    const { t, exports } = options;
    if (t && exports && Object.values(exports).some(Boolean)) this.menu = exportButtons(t, this.#handlers(exports), this.#label() || undefined);
  }

  get title(): string {
    return this.#title;
  }

  set title(text: string) {
    this.#title = this.#text.data = text;
    // many figures, one "Export" each: the menu is named after its figure
    const toggle = this.menu?.querySelector('.export-toggle');
    const label = this.#label();
    if (toggle && label && this.#options.label === undefined) toggle.setAttribute('aria-label', fill(figureTranslator(this.#options.t)('export.menu.aria'), { label }));
  }

  /** Shows new data. */
  abstract update(data: D): void;

  #label(): string | null {
    const { label } = this.#options;
    return label === undefined ? this.#title : label;
  }

  #fileName(): string {
    const { fileName } = this.#options;
    return typeof fileName === 'function' ? fileName() : (fileName ?? this.#title);
  }

  #handlers(e: FigureExports): ExportHandlers {
    const name = (): string => this.#fileName();
    const pictureName = (): string => this.#options.pictureName ?? name();
    return {
      png:
        e.png &&
        (async () => {
          const canvas = await e.png!(this.#title);
          if (canvas) await downloadCanvas(pictureName(), canvas);
        }),
      svg:
        e.svg &&
        (async () => {
          const svg = await e.svg!(this.#title);
          if (svg !== null) downloadSvg(pictureName(), svg);
        }),
      csv:
        e.table &&
        (() => {
          const table = e.table!();
          if (table) downloadCsv(name(), table.rowLabels, table.colLabels, table.values);
        }),
      json:
        e.json &&
        (() => {
          const data = e.json!();
          if (data !== null && data !== undefined) downloadJson(name(), data);
        }),
      html:
        e.html &&
        (async () => {
          const html = await e.html!();
          if (html !== null) downloadHtml(name(), html);
        }),
      embed: e.embed,
    };
  }
}
