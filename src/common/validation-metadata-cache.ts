// class-validator works out a class's rules again on every validate() call, for the DTO and for each
// nested object in it: it filters the class's own rules and scans every registered class for
// ancestors (typestack/class-validator#2686). On the chat path that was a fifth of the validation
// pipe's allocations (docs/benchmarks.md, finding 20). The answer only changes when rules are
// registered, which decorators do as classes load, so it is kept per class and argument set and
// forgotten whenever a rule is added.
import { getMetadataStorage, type MetadataStorage } from 'class-validator';

type Lookup = MetadataStorage['getTargetValidationMetadatas'];
type Rules = ReturnType<Lookup>;

const memoized = new WeakSet<MetadataStorage>();

/** Memoizes `getTargetValidationMetadatas` on class-validator's storage; calling it again is harmless. */
export function memoizeValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  if (memoized.has(storage)) return;
  memoized.add(storage);
  let answers = new WeakMap<object, Map<string, Readonly<Rules>>>();
  const lookUp: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const forget = (): void => {
    answers = new WeakMap();
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let byArguments = answers.get(target);
    if (!byArguments) answers.set(target, (byArguments = new Map()));
    let answer = byArguments.get(key);
    if (!answer) byArguments.set(key, (answer = Object.freeze(lookUp(target, schema, always, strictGroups, groups))));
    return answer as Rules;
  };
  // The executor also regroups the (now memoized, frozen) rules by property on every call; a DTO with
  // many optional fields (the chat request's sampling parameters) made that a visible share of a request.
  const groupByProperty = storage.groupByPropertyName.bind(storage);
  const groups = new WeakMap<Rules, ReturnType<MetadataStorage['groupByPropertyName']>>();
  storage.groupByPropertyName = (rules) => {
    if (!Object.isFrozen(rules)) return groupByProperty(rules);
    let grouped = groups.get(rules);
    if (!grouped) groups.set(rules, (grouped = groupByProperty(rules)));
    return grouped;
  };
  const addMetadata = storage.addValidationMetadata.bind(storage);
  storage.addValidationMetadata = (metadata) => {
    forget();
    addMetadata(metadata);
  };
}
