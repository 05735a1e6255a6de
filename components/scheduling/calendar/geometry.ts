/**
 * Grid geometry of the slot calendar: pixels per minute (a 20-minute slot, the demo's shortest, is
 * 32 px tall: room for its two 14 px lines), the time
 * axis, and a column's least width: an agenda's in the day view (more agendas page sideways), a
 * day's in the week view, narrow enough for seven on a phone (a narrow slot shows its time, or its
 * state's icon, alone).
 */
export const PX_PER_MINUTE = 1.6;
/** The least height (border and padding included) that shows a slot's second line whole. */
export const TWO_LINES_PX = 30;
export const AXIS_PX = 44;
export const COLUMN_PX = 104;
export const WEEK_COLUMN_PX = 34;
/** The most agenda columns the day view shows side by side (more page sideways). */
export const MAX_DAY_COLUMNS = 8;
/**
 * The day view's columns before the grid's width is measured: the server's HTML and the browser's
 * first render (which must match it) show this many, a phone's width; once measured, as many as fit.
 */
export const UNMEASURED_DAY_COLUMNS = 2;
