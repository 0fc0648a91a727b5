// The charts' CSS, for a section with charts to adopt with its own when it mounts (mountRoot), as
// heatmap.ts's HEATMAP_CSS: a page whose widgets draw no chart never downloads it.
import css from './charts.css?inline';

export const CHART_CSS: string = css;
