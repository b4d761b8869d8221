import type { ReactNode } from 'react';

/** A screen's head (styles.css `.screen-head`): its title with a line under it on the left, its pickers and buttons on the right. */
export function ScreenHead({ title, sub, tools }: { title: ReactNode; sub?: ReactNode; tools?: ReactNode }) {
  return (
    <header className="screen-head">
      <div>
        <h1>{title}</h1>
        {sub}
      </div>
      {tools ? <div className="screen-tools">{tools}</div> : null}
    </header>
  );
}
