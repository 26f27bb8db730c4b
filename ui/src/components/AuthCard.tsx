import type { FormEvent, ReactNode } from 'react';
import '../pages/sign-in-page.css';

/** The centred card of the signed-out pages (sign-in, join): brand, title, a form. */
export function AuthCard(props: {
  titleId: string;
  title: string;
  onSubmit: (e: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <main className="sign-in">
      <form className="sign-in-card card" onSubmit={props.onSubmit} aria-labelledby={props.titleId} noValidate>
        <div className="sign-in-brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Stepwise</span>
        </div>
        <h1 id={props.titleId}>{props.title}</h1>
        {props.children}
      </form>
    </main>
  );
}

/** The form's problem as an alert (`id` for the fields' aria-describedby), or nothing. */
export function FormProblem({ id, problem }: { id: string; problem: string | undefined }) {
  if (!problem) return null;
  return (
    <p id={id} className="sign-in-error" role="alert">
      {problem}
    </p>
  );
}
