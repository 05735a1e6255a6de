/**
 * Grid geometry of the slot calendar: pixels per minute (a 30-minute slot is 36 px tall), the time
 * axis, and a column's least width: an agenda's in the day view (more agendas page sideways), a
 * day's in the week view, narrow enough for seven on a phone (a narrow slot shows its time, or its
 * state's icon, alone).
 */
export const PX_PER_MINUTE = 1.2;
export const AXIS_PX = 44;
export const COLUMN_PX = 104;
export const WEEK_COLUMN_PX = 34;
