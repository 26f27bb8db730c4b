import type { InputHTMLAttributes } from 'react';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'value' | 'onChange' | 'autoComplete'> & {
  /** The visible label; "Password" unless told. */
  label?: string;
  value: string;
  onChange: (value: string) => void;
  /** `new-password` also bounds the length to 10–256 characters, as the server does. */
  autoComplete: 'current-password' | 'new-password' | 'off';
  /** The id of the form's problem (FormProblem) when there is one: the input is then marked invalid and described by it. */
  problemId?: string;
  /** The label's class (`sign-in-field` on the signed-out pages). */
  labelClassName?: string;
};

/** A labelled password input (sign-in, join, the account's password change); other input attributes pass through. */
export function PasswordField({
  label = 'Password',
  value,
  onChange,
  autoComplete,
  problemId,
  labelClassName,
  ...input
}: Props) {
  const bounds = autoComplete === 'new-password' ? { minLength: 10, maxLength: 256 } : {};
  return (
    <label className={labelClassName}>
      <span>{label}</span>
      <input
        type="password"
        autoComplete={autoComplete}
        {...bounds}
        {...input}
        value={value}
        aria-invalid={problemId ? true : undefined}
        aria-describedby={problemId}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
