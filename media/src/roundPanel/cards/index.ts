/**
 * The cards of the round panel, one per input of the round: a form per form elicitation, a consent
 * card per URL elicitation, a review card per sampling request, a quiet line for roots, and a
 * placeholder for a sampling review still on its way.
 */
import type { InputView } from '../../../../src/vscode/roundPanel/protocol';
import type { Card, CardContext } from './card';
import { formCard } from './form';
import { rootsCard, waitingCard } from './roots';
import { samplingCard } from './sampling';
import { urlCard } from './url';

export type { Card, CardContext } from './card';

/** The card for an item view. */
export function makeCard(view: InputView, ctx: CardContext): Card {
  switch (view.kind) {
    case 'form':
      return formCard(view, ctx);
    case 'url':
      return urlCard(view, ctx);
    case 'sampling':
      return samplingCard(view, ctx);
    case 'roots':
      return rootsCard(view, ctx);
    case 'waiting':
      return waitingCard(view);
  }
}
