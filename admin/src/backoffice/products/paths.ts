// The specification's addresses of the product screens (below /backoffice).
export const productPaths = {
  list: '/productsettings',
  create: '/newproduct',
  edit: (id: number | string) => `/productsettings/update/${id}`,
};
