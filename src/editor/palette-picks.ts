// The palette's picks and the Answers view's search and export: code that only a command the person
// runs needs. commands.ts loads this file on the first such command, so none of it is in what
// loads at activation (docs/decisions.md, "#51, #54: the bundle's goals").
export { pickAnswer, pickCard, pickHelper, pickLater } from './cards/card-picks';
export { exportAnswers } from './answers/answers-export';
export { pickAnswerSearch } from './answers/answers-view';
export { pickFilter } from './cards/filter-pick';
export { pickScope } from './cards/scope-pick';
