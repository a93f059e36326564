export { InvalidReportDataError, UnknownReportFormatError } from './errors.js';
export {
  isReportFormat,
  parseReportFormat,
  renderComparison,
  REPORT_FORMATS,
  type ReportFormat,
} from './render-comparison.js';
export { checkComparisonView } from './validate-comparison.js';
export { renderHistory } from './render-history.js';
export { checkHistoryView } from './validate-history.js';
export { renderHostsHistory } from './render-hosts.js';
export { hostsSideBySide, type HostsLevelTable, type HostsTableColumn } from './hosts-table.js';
export { hostsDocument, hostsLevelTable, hostTag } from './hosts-document.js';
export { hostsCsv, hostsJson, HOSTS_CSV_HEADER } from './hosts-data.js';

// Building blocks for other reports (history across versions, email bodies).
export type { Block, HeadlinePart, ChartBar, ChartBlock, ChartTone, TrendBlock, TrendPoint } from './document.js';
export { relativeQpsChart } from './relative-qps-chart.js';
export {
  historyDetectableDropTable,
  historyDocument,
  historyDriftLines,
  historyPerOpTable,
  historyQpsChart,
  historyRelativeQpsTable,
  historyTitle,
  historyTrend,
  relativeQpsCell,
} from './history-document.js';
export { levelPhrase } from './history-levels.js';
export { renderHtmlTrend } from './html-trend.js';
export { renderTextTrend } from './trend-text.js';
export {
  IMPORTED_FOOTNOTE,
  MEDIAN_FOOTNOTE,
  MEDIAN_MARK,
  relativeFigures,
  relativeQpsRow,
  relativeRow,
  STEP_MARKS,
  versionCell,
  type HistoryRelativeQps,
} from './history-figures.js';
export { historyCsv, historyCsvHeader } from './history-csv.js';
export { historyJson, type HistoryRelativeFigures } from './history-json.js';
export {
  comparisonDocument,
  comparisonHeadline,
  comparisonTitle,
  dbCounterTable,
  hintText,
  perOpTable,
  relativeQpsTable,
  verdictLines,
  verdictRows,
  WAITING_TEXT,
} from './comparison-document.js';
export { left, makeTable, right, TableShapeError, type Align, type Column, type Table } from './table.js';
export { printable, renderTextDocument, renderTextTable } from './text-layout.js';
export { BIDI_CONTROLS, shownBidi } from './printable.js';
export { escapeMarkdown, renderMarkdownChart, renderMarkdownDocument, renderMarkdownTable } from './markdown-layout.js';
export { escapeHtml } from './html-escape.js';
export { renderHtmlDocument, renderHtmlTable } from './html-layout.js';
export { renderHtmlChart, TONE_COLORS } from './html-chart.js';
export { renderTextChart, TEXT_BAR_WIDTH } from './chart-text.js';
export { TONE_MARKERS } from './chart-scale.js';
export { csvField, csvRecord } from './csv.js';
export {
  formatConfidence,
  formatDetectableDrop,
  formatDropPercent,
  formatOkBound,
  formatInterval,
  formatPercent,
  formatRange,
  formatRatio,
  formatRelative,
  formatSignificant,
  formatSlowerEstimate,
  INFINITE_CELL,
  UNDEFINED_CELL,
} from './number-format.js';
export { ratio, ratioOrOne, spreadPercent } from './ratio.js';
export {
  formatResultsCsv,
  parseResultsCsv,
  ResultsCsvError,
  RESULTS_CSV_HEADER,
  type ResultRow,
} from './results-csv.js';
export { renderFlameGraphSvg, growthColour, type FlameGraphInput } from './flame-graph.js';
export {
  grownFramesTable,
  profileDocument,
  renderProfileHtml,
  renderProfileText,
  type ProfileReport,
} from './profile-report.js';
export { bisectionSummary, historyBisectionLines, type BisectionLike } from './bisection-line.js';
export { countVerdicts, headlineBlock, verdictHeadline } from './headline.js';
export { ansiTone, ratioTone, TONE_CELL_STYLES, verdictTone } from './tones.js';
export type { CellTone } from './table.js';
export type { TextOptions } from './text-layout.js';
export {
  functionCell,
  functionGrowthBlocks,
  functionGrowthTable,
  INSTRUCTION_TONES,
  instructionCount,
  instructionRatio,
  instructionsBlocks,
  instructionsTable,
  laneHeadline,
  laneLine,
} from './instructions-table.js';
export { plansBlocks, variablesBlocks } from './side-tables.js';
