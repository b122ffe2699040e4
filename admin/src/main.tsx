import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// Placeholder of the back office (react-admin) and the vendor area (/me); the login and the real
// screens come with the back-office issues.
function Placeholder() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: '40rem', margin: '3rem auto', padding: '0 1rem' }}>
      <h1 id="backoffice-title">Backoffice</h1>
      <p id="backoffice-login-pending">Login folgt</p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Placeholder />
  </StrictMode>,
);
