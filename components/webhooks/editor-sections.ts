import type { MessageKey } from '@/lib/i18n';

/**
 * The configuration page's sections (console and portal), in page order: the section navigation
 * lists them and links to `#id`, and the URL keeps the section the reader is in. A new section is
 * one line here and `id={'<its id>' satisfies EditorSectionId}` on its card. `only`: shown only
 * where it is on the page (the portal card: the console, for a partner's configuration).
 */
export const EDITOR_SECTIONS = [
  { id: 'configuracao', label: 'webhook.section.settings' },
  { id: 'portal', label: 'webhook.section.portal', only: 'console-partner' },
  { id: 'saude', label: 'webhook.section.health' },
  { id: 'segredo', label: 'webhook.section.secret' },
  { id: 'entregas', label: 'webhook.section.deliveries' },
  { id: 'recuperacao', label: 'webhook.section.recovery' },
] as const satisfies readonly { id: string; label: MessageKey; only?: 'console-partner' }[];

export type EditorSectionId = (typeof EDITOR_SECTIONS)[number]['id'];
