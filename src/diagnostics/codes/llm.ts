import { defineDiagnostics } from '../catalog.js';

// AUR4xxx — LLM providers, routing, replay cache.
//   AUR40xx  provider ids, CLI flags, routing
//   AUR41xx  aureus.config.yaml (the LLM layer's settings file: provider, models, prices, budgets)
//   AUR42xx  calls: JSON answers, HTTP, budget, abort, streaming
//   AUR43xx  record/replay cache
//   AUR44xx  run log and `aureus cost`
defineDiagnostics([
  {
    code: 'AUR4001',
    severity: 'error',
    message: 'unknown provider "{id}"',
    hint: 'valid forms: auto | offline | anthropic | anthropic:<model> | replay:<dir>',
  },
  {
    code: 'AUR4002',
    severity: 'error',
    message: 'bad --model value "{value}"',
    hint: 'valid form: --model <role>=<model-id> with role one of {roles}, e.g. --model writer=claude-opus-5-5',
  },
  {
    code: 'AUR4003',
    severity: 'error',
    message: 'bad {flag} value "{value}": {reason}',
    hint: '{expected}',
  },
  {
    code: 'AUR4004',
    severity: 'error',
    message: 'model "{model}" (used for {slots}) has no price in aureus.config.yaml',
    hint: 'add prices.{model}: { input, output, cache_write, cache_read } in USD per million tokens, or route {slots} to a priced model',
  },
  {
    code: 'AUR4005',
    severity: 'error',
    message: 'the anthropic provider needs ANTHROPIC_API_KEY',
    hint: 'export ANTHROPIC_API_KEY=…, or use --provider offline, or --provider replay:<dir> with a recorded cache',
  },
  {
    code: 'AUR4006',
    severity: 'error',
    message: 'no offline realizer for role "{role}"',
    hint: 'an offline realizer lives in src/providers/offline/<role>.ts and exports `realize`, or is registered with registerOfflineRealizer()',
  },
  {
    code: 'AUR4007',
    severity: 'error',
    message: 'unknown model id "{model}" at {key}',
    hint: 'known models: {known}; a typo here would fail the run on its first call',
  },
  {
    code: 'AUR4008',
    severity: 'error',
    message: '{key} is {value}, more than {model} accepts ({max})',
    hint: 'the API answers HTTP 400 for this; lower {key} to at most {max}',
  },
  {
    code: 'AUR4009',
    severity: 'error',
    message: '{key} is "{effort}" but {model} (used for {role}) does not accept output_config.effort',
    hint: 'the API answers HTTP 400 for this; set {key}: null, or route {role} to a 5.x model',
  },
  {
    code: 'AUR4010',
    severity: 'warning',
    // Worded without tense: the check reads no clock, so the same config says the same before and after the date.
    message: 'model "{model}" (used for {slots}) is retired on {date}; the API refuses it from that day',
    hint: 'move to the current lineup ({lineup})',
  },
  {
    code: 'AUR4101',
    severity: 'error',
    message: 'YAML syntax error: {detail}',
    hint: 'fix the YAML syntax at the position shown',
  },
  {
    code: 'AUR4102',
    severity: 'error',
    message: '{detail}',
    hint: 'see schemas/config.schema.json for the allowed values',
  },
  {
    code: 'AUR4103',
    severity: 'error',
    message: 'unknown key "{key}"',
    hint: '{suggestion}',
  },
  {
    code: 'AUR4104',
    severity: 'error',
    message: 'forbidden key "{key}" (prototype pollution)',
    hint: 'remove the key; __proto__, constructor and prototype are never valid keys',
  },
  {
    code: 'AUR4105',
    severity: 'error',
    message: 'cannot read the config file: {detail}',
    hint: 'aureus.config.yaml must be a UTF-8 text file under 1 MiB',
  },
  {
    code: 'AUR4106',
    severity: 'error',
    message: 'the config file must hold a mapping at the top level, not {kind}',
    hint: 'start from the aureus.config.yaml that `aureus init` writes',
  },
  {
    code: 'AUR4201',
    severity: 'error',
    message: 'the {role} answer is not valid {schema} after {attempts} attempt(s): {problems}',
    hint: 'the model kept answering with JSON that does not match the schema; try --model {role}=<a stronger model> or raise budgets.json_reasks',
  },
  {
    code: 'AUR4202',
    severity: 'error',
    message: 'provider call budget exhausted: {used} of {limit} requests this episode (retries included)',
    hint: 'raise budgets.provider_calls_per_episode in aureus.config.yaml; the run is resumable',
  },
  {
    code: 'AUR4203',
    severity: 'error',
    message: 'the provider answered HTTP {status} for {call}: {detail}',
    hint: '{advice}',
  },
  {
    code: 'AUR4204',
    severity: 'error',
    message: 'cannot reach the provider for {call} after retries: {detail}',
    hint: 'check the network and ANTHROPIC_BASE_URL; the run is resumable',
  },
  {
    code: 'AUR4205',
    severity: 'error',
    message: 'the {role} call was aborted',
    hint: 'the run is resumable: run the same command again',
  },
  {
    code: 'AUR4206',
    severity: 'error',
    message: 'the answer stream of {call} was cut off {attempts} time(s): {detail}',
    hint: 'the provider closed the stream early; the run is resumable',
  },
  {
    code: 'AUR4207',
    severity: 'error',
    message: '{call} timed out after {timeout_ms} ms, with no retry left ({attempts} request(s))',
    hint: 'each request of a {role} call may take timeouts_ms.{role}, its answer included (not the waits between retries): raise it, or budgets.retries, in aureus.config.yaml; the run is resumable',
  },
  {
    code: 'AUR4208',
    severity: 'error',
    message: 'the provider failed for {call}: {detail}',
    hint: 'check the model id and settings in aureus.config.yaml; the run is resumable',
  },
  {
    code: 'AUR4209',
    severity: 'error',
    message: 'cost cap reached: the next {role} call (worst case ${estimate}) could take the spend past --max-cost ${cap}: ${spent} spent, no call in flight',
    hint: 'nothing was committed; raise --max-cost (or budgets.max_cost_usd) and run the same command again to resume',
  },
  {
    code: 'AUR4210',
    severity: 'error',
    message: 'the {role} answer{where} was cut off at max_tokens ({max_tokens}) {attempts} time(s)',
    hint: 'raise max_tokens.{role} in aureus.config.yaml or lower effort.{role}; the run is resumable',
  },
  {
    code: 'AUR4211',
    severity: 'warning',
    message: 'the {role} answer\'s {field} carried control or bidi characters ({removed}): removed before it was committed',
    hint: 'nothing to do: control characters, terminal escapes and bidi overrides are not text, and would hide or disguise it in a diff',
  },
  {
    code: 'AUR4212',
    severity: 'error',
    message: 'the model refused the {role} call{where} {attempts} time(s): "{words}"',
    hint: 'the model declined the request (stop_reason "refusal"), so nothing was committed; the run is resumable: run the same command again, or route {role} to another model (--model {role}=<model-id>), or change the steering or world content that the call asks for',
  },
  {
    code: 'AUR4213',
    severity: 'warning',
    message: 'the recap of {episode} was not usable ({why}): the offline recap written from the episode\'s events was committed instead',
    hint: 'nothing to do; to have a model write it, run the episode again later or route recap to another model (--model recap=<model-id>)',
  },
  {
    code: 'AUR4230',
    severity: 'error',
    message: 'the {role} answer{where} was empty (no text) in {empties} of {attempts} attempt(s)',
    hint: 'the model answered with no text at all (an empty content list, or thinking blocks only), which no re-ask for its form can mend; the run is resumable: run the same command again, or route {role} to another model (--model {role}=<model-id>)',
  },
  {
    code: 'AUR4214',
    severity: 'error',
    message: 'no Messages API at {url} (HTTP 404) for {call}: {detail}',
    hint: '{fix}; the run is resumable',
  },
  {
    code: 'AUR4301',
    severity: 'error',
    message: 'replay miss: no recorded answer for the {role} call{where} (key {key})',
    hint: 'record it first with a real provider (cache.mode read-write), or point replay:<dir> at the cache that holds it',
  },
  {
    code: 'AUR4303',
    severity: 'error',
    message: 'replay:{dir}: {abs} {reason}, so every call would be a replay miss',
    hint: 'point replay:<dir> at the folder a recorded run wrote (cache.dir in aureus.config.yaml, .aureus/cache by default), relative to the world repository',
  },
  {
    code: 'AUR4302',
    severity: 'warning',
    message: 'corrupt cache entry {file}: {detail}',
    hint: 'read as a miss: the call is asked again (a paid call) and its answer recorded over the entry; nothing to do unless it recurs (entries are written whole, so something else changed the file)',
  },
  {
    code: 'AUR4401',
    severity: 'error',
    message: 'no run log at {file}',
    hint: 'name an episode (s01e03), an episode folder or a run folder that holds run_log.jsonl',
  },
  {
    code: 'AUR4402',
    severity: 'error',
    message: 'invalid run log line: {detail}',
    hint: 'run_log.jsonl holds one JSON object per line; a total that skipped lines would be wrong, so none is printed',
  },
  {
    code: 'AUR4499',
    severity: 'warning',
    message: 'line {line} of {file} is not a run log entry ({detail}): the call it records is not counted, so the tokens and cost committed for {episode} are a lower bound',
    hint: 'the commit keeps the line as it was and its Aureus-Tokens and Aureus-Cost trailers say "a lower bound"; `aureus cost` of the episode names the line and prints no total (AUR4402). Lines are appended whole: something else changed the file',
  },
]);
