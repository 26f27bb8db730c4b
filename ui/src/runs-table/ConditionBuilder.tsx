import { useState } from 'react';
import { type Condition, CONFIG_OPS, type ConditionOp, METRIC_OPS, OP_LABELS, parseValue } from './filter-conditions';
import { Popover } from './Popover';
import { Field } from './Field';

/**
 * "Add filter" drop-down: a metric's last value or a config key, an operator and a value,
 * e.g. metric train/loss last < 0.5. Names are suggested from the project's metrics and the
 * loaded runs' config.
 */
export function ConditionBuilder({
  metricNames,
  configKeys,
  onAdd,
}: {
  metricNames: readonly string[];
  configKeys: readonly string[];
  onAdd: (condition: Condition) => void;
}) {
  const [kind, setKind] = useState<'metric' | 'config'>('metric');
  const [name, setName] = useState('');
  const [op, setOp] = useState<ConditionOp>('$lt');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState('');
  const ops = kind === 'metric' ? METRIC_OPS : CONFIG_OPS;
  const suggestions = kind === 'metric' ? metricNames : configKeys;

  /** Returns whether the condition was added (the panel then closes). */
  const submit = (): boolean => {
    const field = name.trim();
    if (field === '') return fail('Name a metric or a config key.');
    let parsed: Condition['value'];
    if (op === '$exists') parsed = true;
    else if (op === '$regex') parsed = value;
    else {
      parsed = parseValue(value);
      if (kind === 'metric' && typeof parsed !== 'number') return fail('A metric compares with a number.');
    }
    if (op !== '$exists' && value.trim() === '') return fail('Give a value.');
    setProblem('');
    onAdd({ kind, name: field, op, value: parsed });
    setValue('');
    return true;
  };
  const fail = (text: string): false => {
    setProblem(text);
    return false;
  };

  return (
    <Popover label="Add filter">
      {(close) => (
        <form
          className="condition-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (submit()) close();
          }}
        >
          <Field label="Filter on">
            {(id) => (
              <>
                <select
                  id={id}
                  value={kind}
                  onChange={(e) => {
                    const next = e.target.value === 'config' ? 'config' : 'metric';
                    setKind(next);
                    if (next === 'metric' && !METRIC_OPS.includes(op)) setOp('$lt');
                  }}
                >
                  <option value="metric">Metric (last value)</option>
                  <option value="config">Config key</option>
                </select>
              </>
            )}
          </Field>
          <Field label={kind === 'metric' ? 'Metric' : 'Config key'}>
            {(id) => (
              <>
                <input
                  id={id}
                  list={`${id}-names`}
                  value={name}
                  onChange={(e) => setName(e.target.value)}
                  placeholder={kind === 'metric' ? 'train/loss' : 'lr'}
                  maxLength={1024}
                />
                <datalist id={`${id}-names`}>
                  {suggestions.slice(0, 500).map((s) => (
                    <option key={s} value={s} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
          <Field label="Operator">
            {(id) => (
              <>
                <select id={id} value={op} onChange={(e) => setOp(e.target.value as ConditionOp)}>
                  {ops.map((o) => (
                    <option key={o} value={o}>
                      {OP_LABELS[o]}
                    </option>
                  ))}
                </select>
              </>
            )}
          </Field>
          {op !== '$exists' && (
            <Field label="Value">
              {(id) => (
                <>
                  <input
                    id={id}
                    value={value}
                    inputMode={kind === 'metric' ? 'decimal' : undefined}
                    onChange={(e) => setValue(e.target.value)}
                    placeholder={kind === 'metric' ? '0.5' : 'value'}
                  />
                </>
              )}
            </Field>
          )}
          {problem && (
            <p className="form-problem" role="alert">
              {problem}
            </p>
          )}
          <button type="submit">Apply filter</button>
        </form>
      )}
    </Popover>
  );
}
