import type { ReactElement } from 'react';
import { BooleanInput, CheckboxGroupInput, required, SimpleForm, TextInput, useTranslate } from 'react-admin';
import { eventTypeLabel, eventTypes } from './record.ts';

/** An endpoint's fields, for making and for editing one. */
export function WebhookForm({ toolbar }: { toolbar?: ReactElement | false }) {
  const translate = useTranslate();
  return (
    <SimpleForm toolbar={toolbar} defaultValues={{ active: true, eventTypes: [...eventTypes], description: '' }}>
      <TextInput
        source="url"
        type="url"
        validate={required()}
        helperText={translate('app.webhooks.url_help')}
        fullWidth
      />
      <TextInput source="description" fullWidth />
      <CheckboxGroupInput
        source="eventTypes"
        validate={required()}
        choices={eventTypes.map((type) => ({ id: type, name: eventTypeLabel(type) }))}
        row={false}
      />
      <BooleanInput source="active" />
    </SimpleForm>
  );
}
