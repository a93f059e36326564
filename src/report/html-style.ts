/**
 * Inline styles of the HTML layout. Email clients drop <style> blocks and most layout CSS, so every element carries
 * its own style attribute and the layout uses tables only (no flexbox, no grid, no classes).
 */
export const FONT = "font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif";
export const MONO = "font-family:'SFMono-Regular',Consolas,'Liberation Mono',Menlo,monospace";

export const STYLE = {
  body: `margin:0;padding:16px;background-color:#ffffff;color:#1f2328;${FONT};font-size:14px;line-height:1.4`,
  h1: `margin:0 0 12px 0;font-size:20px;font-weight:bold;${FONT}`,
  h2: `margin:20px 0 8px 0;font-size:16px;font-weight:bold;${FONT}`,
  lines: 'margin:0 0 12px 0',
  table: `border-collapse:collapse;margin:0 0 12px 0;${MONO};font-size:13px`,
  th: 'padding:3px 10px;border-bottom:1px solid #8c959f;font-weight:bold;white-space:nowrap',
  td: 'padding:3px 10px;border-bottom:1px solid #d8dee4;white-space:nowrap',
} as const;
