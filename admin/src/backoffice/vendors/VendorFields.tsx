import { BooleanInput, email, required, SelectInput, TextInput } from 'react-admin';
import { DayField } from '../common/DayInput.tsx';
import { Section } from '../common/Section.tsx';

export const languageChoices = [
  { id: 'de', name: 'app.vendor.language_de' },
  { id: 'en', name: 'app.vendor.language_en' },
];

/** The vendor's own data, the same on create and edit; labels come from resources.vendorsummary.fields. */
export function VendorFields() {
  return (
    <>
      <Section title="app.vendor.section_person">
        <TextInput source="licenseId" validate={required()} />
        <TextInput source="firstName" validate={required()} />
        <TextInput source="lastName" />
        {/* The language of the vendor's page /me, so it must be one that page speaks. */}
        <SelectInput source="language" choices={languageChoices} defaultValue="de" validate={required()} />
        <TextInput source="email" type="email" validate={email()} />
        <TextInput source="telephone" />
        <TextInput source="address" />
        <TextInput source="postCode" />
      </Section>
      <Section title="app.vendor.section_registration">
        <DayField source="registrationDate" />
        <DayField source="vendorSince" />
        <BooleanInput source="hasBankAccount" />
        <BooleanInput source="hasSmartphone" />
        <BooleanInput source="onlineMap" />
        <BooleanInput source="isDisabled" />
        <TextInput source="accountProofUrl" type="url" />
        <TextInput source="debt" multiline />
      </Section>
    </>
  );
}
