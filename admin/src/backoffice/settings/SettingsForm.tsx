import type { ReactNode } from 'react';
import { Edit, SaveButton, SimpleForm, Toolbar, useNotify, type RaRecord } from 'react-admin';
import type { PublicSettings } from '../../shared/settings.ts';
import { PageTitle } from '../layout/PageTitle.tsx';
import { useSettings } from '../SettingsContext.tsx';

/**
 * The newspaper's one settings record (PUT /api/settings) as a form that stays on its page: a save
 * says `savedMessage` and updates the settings the whole back office draws on (name, colours).
 */
export function SettingsForm({
  page,
  savedMessage,
  transform,
  children,
}: {
  page: string;
  savedMessage: string;
  transform?: (values: RaRecord) => RaRecord;
  children: ReactNode;
}) {
  const { setSettings } = useSettings();
  const notify = useNotify();
  return (
    <Edit
      resource="settings"
      id={1}
      title={<PageTitle page={page} />}
      mutationMode="pessimistic"
      redirect={false}
      actions={false}
      transform={transform}
      mutationOptions={{
        onSuccess: (saved: RaRecord) => {
          setSettings(saved as unknown as PublicSettings);
          notify(savedMessage, { type: 'success' });
        },
      }}
    >
      <SimpleForm
        noValidate
        toolbar={
          <Toolbar>
            <SaveButton />
          </Toolbar>
        }
      >
        {children}
      </SimpleForm>
    </Edit>
  );
}
