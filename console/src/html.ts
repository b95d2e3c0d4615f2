import { h } from 'preact';
import htm from 'htm';

/** Tagged templates instead of JSX: no JSX build step, and no eval (htm parses once per template). */
export const html = htm.bind(h);
