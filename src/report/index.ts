export type { ComparisonView, HintFigure, PerOpFigures, RowVerdict, SideFigures, TargetLabel, TestRow } from './comparison-view.js';
export { testLabel } from './comparison-view.js';
export { InvalidReportDataError, UnknownReportFormatError } from './errors.js';
export { isReportFormat, parseReportFormat, renderComparison, REPORT_FORMATS, type ReportFormat } from './render-comparison.js';
export { checkComparisonView } from './check-view.js';

// Building blocks for other reports (history across versions, email bodies).
export type { Block } from './document.js';
export { comparisonDocument, dbCounterTable, perOpTable, relativeQpsTable, verdictLines } from './comparison-document.js';
export { left, makeTable, right, TableShapeError, type Align, type Column, type Table } from './table.js';
export { printable, renderTextDocument, renderTextTable } from './text-layout.js';
export { escapeMarkdown, renderMarkdownDocument, renderMarkdownTable } from './markdown-layout.js';
export { csvField, csvRecord } from './csv.js';
export { formatPercent, formatRange, formatRatio, formatSignificant, UNDEFINED_CELL } from './number-format.js';
export { ratio, spreadPercent } from './ratio.js';
