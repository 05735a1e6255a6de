'use client';
import { lazy } from 'react';

/**
 * The cards below a webhook form's receiver URL (delivery state, custom headers, events) and the
 * editor's delete button, each in its own chunk, out of the form page's first-load JavaScript:
 * the server renders them with the page as usual, and the browser keeps that HTML until their
 * chunk has arrived and hydrates them then. A click on one before that is not lost: React hydrates
 * the boundary clicked first and replays the click. Render them inside a <Suspense> boundary; its
 * fallback shows only on a client navigation, while the chunk loads.
 */
export const LazyDeliveryStateCard = lazy(() => import('./delivery-state-card').then((module) => ({ default: module.DeliveryStateCard })));
export const LazyHeadersEditor = lazy(() => import('./headers-editor').then((module) => ({ default: module.HeadersEditor })));
export const LazyEventToggles = lazy(() => import('./event-toggles').then((module) => ({ default: module.EventToggles })));
export const LazyDeleteWebhookButton = lazy(() =>
  import('./delete-webhook-button').then((module) => ({ default: module.DeleteWebhookButton })),
);
