// What the card panel and the palette's "Answer" both offer, in the same words (#38): Later's
// presets, and the note an answer carries. No `vscode`: the webview and the host share it.
import type { AnswerPayload } from './protocol';
import { t } from './l10n';

/** Later's presets, as the service reads them (`tonight` 6 PM, `tomorrow` 8 AM in the person's time zone), in the panel's words. */
export type LaterPreset = '1h' | 'tonight' | 'tomorrow';
export function laterPresets(): { until: LaterPreset; label: string }[] {
  return [
    { until: '1h', label: t('In 1 hour') },
    { until: 'tonight', label: t('Tonight (6 PM)') },
    { until: 'tomorrow', label: t('Tomorrow (8 AM)') },
  ];
}

/** An answer with the person's note to the assistant, when they wrote one (blank is none). */
export function withNote(body: AnswerPayload, note: string | undefined): AnswerPayload {
  const text = note?.trim();
  return text ? { ...body, note: { text }, via: 'text' } : { ...body };
}
